package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/internal/transcript"
)

// newTranscriptCmd is `parley conversations transcript ID`.
func newTranscriptCmd(g *globalFlags) *cobra.Command {
	var format, output string
	cmd := &cobra.Command{
		Use:   "transcript ID",
		Short: "Write a conversation's whole thread, oldest message first",
		Long: `Writes the thread of conversation ID, oldest message first: each message's sender
(name and role: contact, operator or bot), time (UTC), text and attachment (its file name
and link). The messages are read 100 a request, in ascending order, and written as they
arrive: a thread of n messages costs ⌈n/100⌉ requests of the conversations family.

Formats: text (default), markdown (the text escaped, so a message can make no heading,
link or markup of its own), json (one object a message per line: conversation_id, id,
sent_at, role, sender_id, name, body as sent, url as sent and link, the url made safe, when
it is an http(s) address). To stdout, or with -o to a file (mode 0600) that appears only
once the transcript is complete. Text from the API is sanitized in text and markdown and
escaped in json, so printing a transcript on a terminal is safe.`,
		Example: `  parley conversations transcript 700046
  parley conversations transcript 700046 --format markdown -o chat.md`,
		Args: needArgs(1, 1, "ID", "a conversation id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(strings.TrimSpace(args[0]), 10, 64)
			if err != nil || id <= 0 {
				return fmt.Errorf("%q is not a conversation id (a positive integer)", args[0])
			}
			f, err := transcript.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			o, err := openOutput(cmd, g, output)
			if err != nil {
				return err
			}
			defer o.close()
			n, err := transcript.Write(o.ctx, o.s.Client, id, f, o.w)
			if err != nil {
				if o.file != nil {
					return fmt.Errorf("transcript of conversation %d (%s not written): %w", id, output, err)
				}
				return fmt.Errorf("transcript: %w", err)
			}
			return o.commit(fmt.Sprintf("%d messages of conversation %d", n, id))
		},
	}
	cmd.Flags().StringVar(&format, "format", string(transcript.Text), "text, markdown or json")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file (mode 0600) instead of stdout")
	formats := make([]string, len(transcript.Formats))
	for i, f := range transcript.Formats {
		formats[i] = string(f)
	}
	completeValues(cmd, "format", formats...)
	return cmd
}
