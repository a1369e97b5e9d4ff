package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("héllo"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, cut, err := ReadBounded(100)(small)
	if err != nil || cut || got != "héllo" {
		t.Errorf("small file = %q, %v, %v", got, cut, err)
	}
	// "hé" is 3 bytes; a bound of 2 would split the é: the cut moves back.
	got, cut, err = ReadBounded(2)(small)
	if err != nil || !cut || got != "h" {
		t.Errorf("bound inside a rune = %q, %v, %v; want \"h\", true", got, cut, err)
	}
	got, cut, err = ReadBounded(3)(small)
	if err != nil || !cut || got != "hé" {
		t.Errorf("bound after a rune = %q, %v, %v; want \"hé\", true", got, cut, err)
	}
	// Larger than any read buffer, exactly at the bound, and one past it.
	large := filepath.Join(dir, "large")
	text := strings.Repeat("line of text, é\n", 20000)
	if err := os.WriteFile(large, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, bound := range []int64{int64(len(text)), int64(len(text)) + 1, 1 << 30} {
		if got, cut, err := ReadBounded(bound)(large); err != nil || cut || got != text {
			t.Errorf("bound %d: %d bytes, cut %v, %v; want the %d bytes", bound, len(got), cut, err, len(text))
		}
	}
	if got, cut, err := ReadBounded(int64(len(text)) - 1)(large); err != nil || !cut || got != text[:len(text)-1] {
		t.Errorf("bound one short: %d bytes, cut %v, %v", len(got), cut, err)
	}
	// A device gives no content (a terminal's read might never end).
	if got, cut, err := ReadBounded(10)(os.DevNull); err == nil || cut || got != "" {
		t.Errorf("%s = %q, %v, %v", os.DevNull, got, cut, err)
	}
	if _, _, err := ReadBounded(10)(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file read without error")
	}
	if _, _, err := ReadBounded(10)(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
}

func TestLoadContents(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.env")
	if err := os.WriteFile(f, []byte("TOKEN=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	calls := []Call{
		{Step: event.PreToolUse, Payload: map[string]any{"tool_name": "Read"}},
		{Step: event.BeforeReadFile, Payload: map[string]any{"file_path": f}},
		{Step: event.BeforeReadFile, Payload: map[string]any{"file_path": f, "content": "given"}},
		{Step: event.BeforeReadFile, Payload: map[string]any{"file_path": filepath.Join(dir, "none")}},
	}
	errs := LoadContents(calls, ReadBounded(MaxContent))
	if got := calls[1].Payload["content"]; got != "TOKEN=1" {
		t.Errorf("content = %v, want the file's", got)
	}
	if got := calls[2].Payload["content"]; got != "given" {
		t.Errorf("a given content was replaced: %v", got)
	}
	if got, ok := calls[3].Payload["content"]; !ok || got != "" {
		t.Errorf("an unreadable file's content = %v, %v; want \"\"", got, ok)
	}
	if _, ok := calls[0].Payload["content"]; ok {
		t.Error("content added to preToolUse")
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "none") {
		t.Errorf("errs = %v, want one about the missing file", errs)
	}
	big := []Call{{Step: event.BeforeReadFile, Payload: map[string]any{"file_path": f}}}
	if errs := LoadContents(big, ReadBounded(5)); len(errs) != 1 || !strings.Contains(errs[0].Error(), "first 5 bytes") {
		t.Errorf("a cut file: %v", errs)
	}
}

func TestEnvFileLines(t *testing.T) {
	lines, skipped := EnvFileLines(map[string]string{
		"B_TOKEN": "it's $HOME `x`",
		"A":       "",
		"bad-key": "v",
		"1X":      "v",
	})
	want := "export A=''\nexport B_TOKEN='it'\\''s $HOME `x`'\n"
	if string(lines) != want {
		t.Errorf("lines = %q, want %q", lines, want)
	}
	if strings.Join(skipped, ",") != "1X,bad-key" {
		t.Errorf("skipped = %v", skipped)
	}
}

func TestAppendEnvFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(p, []byte("export OLD=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := AppendEnvFile(p, map[string]string{"NEW": "2"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "export OLD=1\nexport NEW='2'\n" {
		t.Errorf("env file = %q", b)
	}
	if _, err := AppendEnvFile(filepath.Join(p, "under-a-file"), map[string]string{"X": "1"}); err == nil {
		t.Error("appending under a file succeeded")
	}
}
