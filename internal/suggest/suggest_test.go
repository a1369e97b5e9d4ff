package suggest

import "testing"

func TestClosest(t *testing.T) {
	candidates := []string{"beforeShellExecution", "preToolUse", "stop", "failClosed", "loop_limit"}
	tests := []struct {
		word   string
		want   string
		wantOK bool
	}{
		{"beforeShelExecution", "beforeShellExecution", true},
		{"PreToolUse", "preToolUse", true},
		{"stopp", "stop", true},
		{"fail_closed", "failClosed", true},
		{"loopLimit", "loop_limit", true},
		{"zzz", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := Closest(tt.word, candidates)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"stop", "stop", 0}, {"é", "e", 1},
	}
	for _, tt := range tests {
		if got := editDistance([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
