package conversations

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/transcript"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// transcriptTimeout bounds the writing of a transcript, every page of the thread included.
const transcriptTimeout = 10 * time.Minute

// TranscriptResult is the Result of a transcript written (common.KindConversationTranscript).
type TranscriptResult struct {
	Path     string // absolute when it could be made so
	Messages int
}

// transcriptForm asks for the format and the file of the target conversation's
// transcript: the same file as `parley conversations transcript` writes, in the current
// directory unless a path is typed. The file is written by a command (writeTranscript).
func (m *Model) transcriptForm() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	ctx, id := m.ctx, r.ID
	format, path := string(transcript.Text), ""
	options := make([]huh.Option[string], len(transcript.Formats))
	for i, f := range transcript.Formats {
		options[i] = huh.NewOption(string(f), string(f))
	}
	base := strings.TrimSuffix(transcript.FileName(id, transcript.Text), "."+transcript.Text.Ext())
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewSelect[string]().Title("Format").Options(options...).Value(&format),
			huh.NewInput().Title("File").Value(&path).
				Placeholder("empty: "+base+".txt, .md or .jsonl here").
				Description("The whole thread, oldest first. A typed file is overwritten."),
		))
	}
	title := fmt.Sprintf("Transcript of conversation #%d", id)
	if name := rowTitle(r); name != "" {
		title += " · " + name
	}
	return ctx.OpenModal(forms.New(ctx, forms.Options{
		Title: title,
		Build: build,
		Width: 76,
		Does:  "write",
		Submit: func() (int, tea.Cmd, error) {
			f, err := transcript.ParseFormat(format)
			if err != nil {
				return 0, nil, err
			}
			task, out, c := ctx.NewID(), forms.FileTarget(path, transcript.FileName(id, f)), ctx.Client
			return task, func() tea.Msg {
				written, n, err := writeTranscript(c, id, f, out)
				done := common.TaskDoneMsg{TaskID: task, Kind: common.KindConversationTranscript, Subject: id, Err: err}
				if err == nil {
					done.Result = TranscriptResult{Path: forms.Written(written), Messages: n}
				}
				return done
			}, nil
		},
	}))
}

// writeTranscript writes conversation id's transcript in format f to out, mode 0600 (the
// file appears only complete: export.File; forms.OutFile: a name of parley's own never
// replaces a file). It returns the path written and how many messages it holds.
func writeTranscript(c *client.Client, id int64, f transcript.Format, out forms.OutFile) (string, int, error) {
	file, err := out.Create()
	if err != nil {
		return "", 0, fmt.Errorf("transcript: %w", err)
	}
	defer file.Abort()
	ctx, cancel := context.WithTimeout(context.Background(), transcriptTimeout)
	defer cancel()
	n, err := transcript.Write(ctx, c, id, f, file)
	if err != nil {
		return "", n, err
	}
	if err := file.Commit(); err != nil {
		return "", n, fmt.Errorf("transcript: %w", err)
	}
	return file.Name(), n, nil
}

// transcriptDone says where a transcript went.
func transcriptDone(msg common.TaskDoneMsg) tea.Cmd {
	r, ok := msg.Result.(TranscriptResult)
	if msg.Err != nil || !ok {
		return nil
	}
	noun := layout.Plural(r.Messages, "message", "messages")
	return common.Toast(fmt.Sprintf("Wrote %s %s of #%d to %s", layout.Thousands(r.Messages), noun, msg.Subject, r.Path))
}
