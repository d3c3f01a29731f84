package forms

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// Checked is the write of a form whose answer may be lost (Options.Verify). Start sends a
// value and keeps it with the client it went out with: the operator acting then, since the
// context's client may change while the form is open (ctrl+p works over a form). Verify
// reads again as that operator and checks the value kept.
type Checked[V any] struct {
	Kind    string
	Subject int64
	What    string // names the write in its error ("update contact 12"; "": the task's own)
	// Send writes v; its value is the task's Result.
	Send func(ctx context.Context, c *client.Client, v V) (any, error)
	// Check reads again after the answer to sending v was lost (cause), as Options.Verify
	// says: its value is the Result when v is on the server.
	Check func(ctx context.Context, c *client.Client, v V, cause error) (any, error)

	sent V
	by   *client.Client
}

// Start sends v as a new task of ctx: Submit's task id and command.
func (w *Checked[V]) Start(ctx *common.Ctx, v V) (int, tea.Cmd) {
	w.sent, w.by = v, ctx.Client
	send := w.Send
	return ctx.Start(common.Write{Kind: w.Kind, Subject: w.Subject, What: w.What,
		Do: func(rctx context.Context, c *client.Client) (any, error) { return send(rctx, c, v) }})
}

// Verify is the form's Options.Verify: it checks the value the last Start sent.
func (w *Checked[V]) Verify(ctx *common.Ctx) func(taskID int, cause error) tea.Cmd {
	return func(taskID int, cause error) tea.Cmd {
		v, check := w.sent, w.Check
		return ctx.StartAs(taskID, common.Write{Kind: w.Kind, Subject: w.Subject, Lost: cause, As: w.by,
			Do: func(rctx context.Context, c *client.Client) (any, error) { return check(rctx, c, v, cause) }})
	}
}
