package forms

import (
	"path/filepath"
	"strings"

	"github.com/parley-tui/parley/internal/export"
)

// OutFile is the file a form writes (an export, a transcript): the path typed, which is
// overwritten, or else a name of parley's own, which never replaces a file (Auto: "-2",
// "-3", … is added before the extension instead).
type OutFile struct {
	Path string
	Auto bool
}

// FileTarget is the file of what was typed (trimmed), else of name.
func FileTarget(typed, name string) OutFile {
	if p := strings.TrimSpace(typed); p != "" {
		return OutFile{Path: p}
	}
	return OutFile{Path: name, Auto: true}
}

// Create creates the file (export.Create, or export.CreateFree for Auto): it appears only
// complete, when committed.
func (o OutFile) Create() (*export.File, error) {
	if o.Auto {
		return export.CreateFree(o.Path)
	}
	return export.Create(o.Path)
}

// Written is the path of a file written as a toast says it: absolute when it can be made so.
func Written(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
