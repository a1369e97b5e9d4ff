package teamsync

import escape "github.com/agenthooks/agenthooks/internal/printable"

// printable makes text from the server safe to show on a terminal, on
// one line (package printable).
func printable(s string) string { return escape.Line(s) }

// Printable is printable for multi-line text such as a script: line
// breaks and tabs are kept.
func Printable(s string) string { return escape.Text(s) }
