package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/printable"
	"github.com/agenthooks/agenthooks/state"
)

// logTimeFormat is short and local: the log is read by the person at the
// machine, and --json has the full time.
const logTimeFormat = "Jan _2 15:04:05"

// Fixed column widths; step, source and outcome are sized to the records,
// or (when following, where later records are unknown) to the longest
// usual values.
const (
	timeWidth     = len("Jan _2 15:04:05")
	msWidth       = 7
	exitWidth     = 4
	minCmdWidth   = 20
	followStep    = len("beforeShellExecution")
	followSource  = len("enterprise")
	followOutcome = len("fail-closed")
)

// logPrinter writes entries as JSON lines or as a table whose header is
// printed once, before the first rows.
type logPrinter struct {
	w      io.Writer
	json   bool
	color  bool
	width  int
	follow bool
	headed bool
	// Set with the header: the variable column widths, whether there is
	// room for the source, and what is left for the action and the hook's
	// command.
	step, src, outcome int
	showSource         bool
	action, cmd        int
}

func newLogPrinter(w io.Writer, asJSON, follow bool) *logPrinter {
	return &logPrinter{w: w, json: asJSON, follow: follow, color: colorEnabled(w), width: outputWidth(w)}
}

func (p *logPrinter) print(es []state.Entry) error {
	bw := bufio.NewWriter(p.w)
	if p.json {
		enc := jsonplain.NewEncoder(bw) // commands are full of < > &
		for _, e := range es {
			if err := enc.Encode(e); err != nil {
				return fmt.Errorf("encode record %d: %w", e.Seq, err)
			}
		}
		return bw.Flush()
	}
	if !p.headed {
		if len(es) == 0 && !p.follow {
			return nil
		}
		p.layout(es)
		p.header(bw)
		p.headed = true
	}
	for _, e := range es {
		p.row(bw, e)
	}
	return bw.Flush()
}

// layout sizes the columns from the first batch. The command takes what
// is left of the line; on a narrow terminal the source column goes first,
// so that the command keeps minCmdWidth.
func (p *logPrinter) layout(es []state.Entry) {
	p.step, p.src, p.outcome = len("STEP"), len("SOURCE"), len("OUTCOME")
	if p.follow {
		p.step, p.src, p.outcome = followStep, followSource, followOutcome
	}
	for _, e := range es {
		p.step = max(p.step, utf8.RuneCountInString(e.Step))
		p.src = max(p.src, utf8.RuneCountInString(e.Source))
		p.outcome = max(p.outcome, utf8.RuneCountInString(outcomeText(e)))
	}
	const gap = 2
	used := timeWidth + gap + p.step + gap + p.outcome + gap + msWidth + gap + exitWidth + gap
	p.showSource = p.width-used-p.src-gap >= minCmdWidth
	if p.showSource {
		used += p.src + gap
	}
	// What the agent tried and the hook that judged it share the rest:
	// the action as wide as the widest (when following, half), at most
	// three fifths.
	rest := max(p.width-used-gap, 2)
	p.action = len("ACTION")
	if p.follow {
		p.action = rest / 2
	}
	for _, e := range es {
		p.action = max(p.action, utf8.RuneCountInString(oneLine(actionOf(e))))
	}
	p.action = max(min(p.action, rest*3/5), 1)
	p.cmd = max(rest-p.action, 1)
}

func (p *logPrinter) header(w io.Writer) {
	cells := []string{fmt.Sprintf("%-*s", timeWidth, "TIME"), fmt.Sprintf("%-*s", p.step, "STEP")}
	if p.showSource {
		cells = append(cells, fmt.Sprintf("%-*s", p.src, "SOURCE"))
	}
	cells = append(cells, fmt.Sprintf("%-*s", p.outcome, "OUTCOME"), fmt.Sprintf("%*s", msWidth, "MS"),
		fmt.Sprintf("%*s", exitWidth, "EXIT"), fmt.Sprintf("%-*s", p.action, "ACTION"), "HOOK")
	fmt.Fprintln(w, paint(p.color, ansiBold, strings.Join(cells, "  ")))
}

func (p *logPrinter) row(w io.Writer, e state.Entry) {
	cells := []string{
		paint(p.color, ansiDim, e.Time.Local().Format(logTimeFormat)),
		fmt.Sprintf("%-*s", p.step, e.Step),
	}
	if p.showSource {
		cells = append(cells, fmt.Sprintf("%-*s", p.src, e.Source))
	}
	cells = append(cells,
		paint(p.color, outcomeStyle(e.Outcome), fmt.Sprintf("%-*s", p.outcome, outcomeText(e))),
		fmt.Sprintf("%*s", msWidth, formatMS(e.DurationMS)),
		fmt.Sprintf("%*d", exitWidth, e.ExitCode),
		padRunes(clipCommand(actionOf(e), p.action), p.action),
		clipCommand(e.Command, p.cmd))
	fmt.Fprintln(w, strings.Join(cells, "  "))
}

// outcomeText is the outcome, with the failure kind when there is one.
func outcomeText(e state.Entry) string {
	if e.Failure != "" {
		return e.Outcome + "/" + e.Failure
	}
	return e.Outcome
}

func outcomeStyle(outcome string) string {
	switch outcome {
	case "allow":
		return ansiGreen
	case "ask":
		return ansiYellow
	case "deny", "block", "failed", "fail-closed":
		return ansiRed
	}
	return ""
}

// formatMS shows short durations to a tenth of a millisecond, longer ones
// whole.
func formatMS(ms float64) string {
	if ms < 10 {
		return strconv.FormatFloat(ms, 'f', 1, 64)
	}
	return strconv.FormatFloat(math.Round(ms), 'f', 0, 64)
}

// oneLine is s on one line, as the table shows it.
func oneLine(s string) string { return printable.Line(strings.Join(strings.Fields(s), " ")) }

// padRunes pads s with spaces to n characters.
func padRunes(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// clipCommand puts s on one line (a prompt hook's "command" is its prompt)
// and cuts it to n characters, marking the cut with "…".
func clipCommand(s string, n int) string {
	s = oneLine(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
