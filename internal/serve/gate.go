package serve

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
)

// operatorPath matches the operator endpoints a write may reach: /operators/{id}/ and
// /operators/{id}/away/ (under any base path).
var operatorPath = regexp.MustCompile(`/api/um/v3/operators/([0-9]+)/(away/)?$`)

// anyOperatorPath matches every path under /operators/.
var anyOperatorPath = regexp.MustCompile(`/api/um/v3/operators(/|$)`)

// Gate is the role's check of a write before it is sent (client.WriteGate): an error
// refuses it, and its text says why. operator is the Service-Operator-Id the write would
// carry (0: none, the token's own operator, the owner). knows tells whether an operator
// is one the API lists for the user's organization (the directory of the last load of
// the users file).
//
//   - viewer: every write is refused;
//   - agent: the write must go out as the agent's own operator; of the operator
//     endpoints only PATCH /operators/{own id}/away/;
//   - supervisor: the write must go out as an operator the API lists for the
//     supervisor's organization (never without one: that would be the token's owner,
//     whatever organization the session has switched to).
func Gate(u User, knows func(org, operator int64) bool) func(method, path string, operator int64) error {
	return func(method, path string, operator int64) error {
		switch u.Role {
		case RoleViewer:
			return refuse(refusedViewer, "a viewer cannot change anything")
		case RoleAgent:
			if operator != u.Operator {
				return refuse(refusedOtherOperator, fmt.Sprintf("an agent acts only as their own operator (%d)", u.Operator))
			}
			if m := operatorPath.FindStringSubmatch(path); m != nil {
				id, _ := strconv.ParseInt(m[1], 10, 64)
				if m[2] != "" && method == http.MethodPatch {
					if id != u.Operator {
						return refuse(refusedOthersAway, "an agent sets only their own away status")
					}
					return nil
				}
				return refuse(refusedOperators, "an agent cannot change operators")
			}
			if anyOperatorPath.MatchString(path) {
				return refuse(refusedOperators, "an agent cannot change operators")
			}
			return nil
		case RoleSupervisor:
			if operator == 0 {
				return refuse(refusedNoOperator, "a supervisor acts as an operator of their organization; choose one with act as")
			}
			if !knows(u.Org, operator) {
				return refuse(refusedUnknownOperator, fmt.Sprintf("operator %d is not one of the organization's operators the hub knows", operator))
			}
			return nil
		}
		return refuse(refusedRole, fmt.Sprintf("the role %q may not change anything", u.Role))
	}
}

// Why the gate refuses a write (parley_write_refusals_total's reason).
const (
	refusedViewer          = "viewer"           // a viewer writes nothing
	refusedOtherOperator   = "other_operator"   // an agent writing as another operator
	refusedOperators       = "operators"        // an agent changing an operator
	refusedOthersAway      = "others_away"      // an agent setting another's away status
	refusedNoOperator      = "no_operator"      // a supervisor acting as no operator
	refusedUnknownOperator = "unknown_operator" // a supervisor acting as an operator the hub does not know
	refusedRole            = "role"             // a role that may not write
	refusedOther           = "other"            // a gate other than the role's
)

var refusalReasons = []string{refusedViewer, refusedOtherOperator, refusedOperators, refusedOthersAway, refusedNoOperator,
	refusedUnknownOperator, refusedRole, refusedOther}

// refusal is the gate's refusal of a write: why in words, and its kind for the metrics.
type refusal struct{ kind, why string }

func (r *refusal) Error() string { return r.why }

func refuse(kind, why string) error { return &refusal{kind: kind, why: why} }

// refusalKind is the kind of a refused write's error (refusedOther when the role's gate
// did not refuse it).
func refusalKind(err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return r.kind
	}
	return refusedOther
}
