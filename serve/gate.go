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
			return errors.New("a viewer cannot change anything")
		case RoleAgent:
			if operator != u.Operator {
				return fmt.Errorf("an agent acts only as their own operator (%d)", u.Operator)
			}
			if m := operatorPath.FindStringSubmatch(path); m != nil {
				id, _ := strconv.ParseInt(m[1], 10, 64)
				if m[2] != "" && method == http.MethodPatch {
					if id != u.Operator {
						return errors.New("an agent sets only their own away status")
					}
					return nil
				}
				return errors.New("an agent cannot change operators")
			}
			if anyOperatorPath.MatchString(path) {
				return errors.New("an agent cannot change operators")
			}
			return nil
		case RoleSupervisor:
			if operator == 0 {
				return errors.New("a supervisor acts as an operator of their organization; choose one with act as")
			}
			if !knows(u.Org, operator) {
				return fmt.Errorf("operator %d is not one of the organization's operators the hub knows", operator)
			}
			return nil
		}
		return fmt.Errorf("the role %q may not change anything", u.Role)
	}
}
