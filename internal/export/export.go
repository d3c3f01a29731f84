// Package export writes analytics data points as CSV or JSON, the one format shared by
// `parley analytics export` and the analytics screen's export.
package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// Format is an export file format.
type Format string

// Formats.
const (
	CSV  Format = "csv"
	JSON Format = "json"
)

// ParseFormat reads "csv" or "json".
func ParseFormat(s string) (Format, error) {
	switch Format(strings.ToLower(strings.TrimSpace(s))) {
	case CSV:
		return CSV, nil
	case JSON:
		return JSON, nil
	}
	return "", fmt.Errorf("format %q: want csv or json", s)
}

// Header is the CSV header row.
var Header = []string{
	"metric", "time", "organization_id", "operator_id", "operator_group_id", "um_widget_id",
	"value", "value_str", "conversation_id", "conversation_part_id", "conversation_session_id",
	"is_chatbot_metric", "chatbot_interaction", "human_interaction",
}

// timeLayout is the API's data point time: UTC, no fraction, no zone.
const timeLayout = "2006-01-02T15:04:05"

// DataPoints writes pts of metric to w in format f. JSON is an array of objects shaped like
// the API's data points with a "metric" key added; CSV has Header as its first row and empty
// cells for null values.
func DataPoints(w io.Writer, f Format, metric client.Metric, pts []client.DataPoint) error {
	switch f {
	case CSV:
		return writeCSV(w, metric, pts)
	case JSON:
		return writeJSON(w, metric, pts)
	}
	return fmt.Errorf("export: unknown format %q", f)
}

func writeCSV(w io.Writer, metric client.Metric, pts []client.DataPoint) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return fmt.Errorf("export csv: %w", err)
	}
	row := make([]string, len(Header))
	for _, p := range pts {
		row[0] = string(metric)
		row[1] = p.Time.UTC().Format(timeLayout)
		row[2] = strconv.FormatInt(p.OrganizationID, 10)
		row[3] = optInt(p.OperatorID)
		row[4] = optInt(p.OperatorGroupID)
		ids := make([]string, len(p.WidgetIDs))
		for i, id := range p.WidgetIDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		row[5] = strings.Join(ids, " ")
		row[6] = ""
		if p.Value != nil {
			row[6] = strconv.FormatFloat(*p.Value, 'f', -1, 64)
		}
		row[7] = client.Str(p.ValueStr)
		row[8] = optInt(p.ConversationID)
		row[9] = optInt(p.ConversationPartID)
		row[10] = optInt(p.ConversationSessionID)
		row[11] = strconv.FormatBool(p.IsChatbotMetric)
		row[12] = optBool(p.ChatbotInteraction)
		row[13] = optBool(p.HumanInteraction)
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("export csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("export csv: %w", err)
	}
	return nil
}

type jsonPoint struct {
	Metric client.Metric `json:"metric"`
	// Time as the API writes it (and as the CSV does), UTC without a zone; it hides the
	// embedded point's time, which would marshal with microseconds and a Z.
	Time string `json:"time"`
	client.DataPoint
}

func writeJSON(w io.Writer, metric client.Metric, pts []client.DataPoint) error {
	out := make([]jsonPoint, len(pts))
	for i, p := range pts {
		out[i] = jsonPoint{Metric: metric, Time: p.Time.UTC().Format(timeLayout), DataPoint: p}
	}
	if err := WriteJSON(w, out, true); err != nil {
		return fmt.Errorf("export json: %w", err)
	}
	return nil
}

// WriteJSON writes v as JSON and a newline: the one JSON writer of every command's output
// and export file. Indented by two spaces when indent is set, compact otherwise (one line).
// HTML characters stay as they are; every character a terminal would act on or draw as
// nothing (controls, bidi and other format characters, line separators; see sanitize.JSON)
// is written as a \u escape, so printing the output on a terminal is safe and a JSON reader
// gets the same text back.
func WriteJSON(w io.Writer, v any, indent bool) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	if _, err := w.Write(sanitize.JSON(b.Bytes())); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func optInt(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

func optBool(p *bool) string {
	if p == nil {
		return ""
	}
	return strconv.FormatBool(*p)
}
