package event

import "testing"

// BenchmarkParseResponse reads a typical gating answer, as every hook's
// answer is read.
func BenchmarkParseResponse(b *testing.B) {
	out := []byte(`{"permission":"deny","user_message":"no rm -rf","agent_message":"use trash instead"}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseResponse(BeforeShellExecution, out); err != nil {
			b.Fatal(err)
		}
	}
}
