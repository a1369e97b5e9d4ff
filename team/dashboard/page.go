package dashboard

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/team/store"
)

// pageData is what the page template shows: the choices the server
// accepts, rendered into the form so the script needs no list of its
// own and cannot disagree with the server.
type pageData struct {
	Steps            []event.Step
	OperatingSystems []string
	DefaultStep      event.Step
}

func renderPage() ([]byte, error) {
	tmpl, err := template.ParseFS(assets, "assets/index.html")
	if err != nil {
		return nil, fmt.Errorf("dashboard: parse the embedded page: %w", err)
	}
	var buf bytes.Buffer
	err = tmpl.Execute(&buf, pageData{
		Steps:            event.Steps[:],
		OperatingSystems: store.OperatingSystems,
		DefaultStep:      event.BeforeShellExecution,
	})
	if err != nil {
		return nil, fmt.Errorf("dashboard: render the embedded page: %w", err)
	}
	return buf.Bytes(), nil
}
