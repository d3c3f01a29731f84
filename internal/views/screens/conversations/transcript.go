package conversations

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
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
			task := ctx.NewID()
			target, auto := strings.TrimSpace(path), false
			if target == "" {
				target, auto = transcript.FileName(id, f), true
			}
			c := ctx.Client
			return task, func() tea.Msg {
				written, n, err := writeTranscript(c, id, f, target, auto)
				done := common.TaskDoneMsg{TaskID: task, Kind: common.KindConversationTranscript, Subject: id, Err: err}
				if err == nil {
					if abs, err := filepath.Abs(written); err == nil {
						written = abs // the toast says where the file went
					}
					done.Result = TranscriptResult{Path: written, Messages: n}
				}
				return done
			}, nil
		},
	}))
}

// writeTranscript writes conversation id's transcript in format f to path, mode 0600 (the
// file appears only complete: export.File). With auto an existing file is never replaced:
// the first free name of path-2, path-3, … is taken instead. It returns the path written
// and how many messages it holds.
func writeTranscript(c *client.Client, id int64, f transcript.Format, path string, auto bool) (string, int, error) {
	create := export.Create
	if auto {
		create = export.CreateFree
	}
	file, err := create(path)
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
