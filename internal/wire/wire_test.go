package wire

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

func TestRequestRoundTrip(t *testing.T) {
	in := Request{Protocol: Protocol, Build: "/bin/x|1|2|3:4", Args: []string{"run", "--from", "claude", ""},
		Dir: "/w s", Env: []string{"A=1", "B=\x00\xff", ""}, StdinErr: "broken pipe"}
	var buf bytes.Buffer
	if err := WriteRequest(&buf, &in); err != nil {
		t.Fatal(err)
	}
	if err := WriteBody(&buf, []byte("payload")); err != nil {
		t.Fatal(err)
	}
	var out Request
	if err := ReadRequest(&buf, &out); err != nil {
		t.Fatal(err)
	}
	body, err := ReadBody(&buf, MaxBody)
	if err != nil || string(body) != "payload" {
		t.Fatalf("body %q, %v", body, err)
	}
	if out.Protocol != in.Protocol || out.Build != in.Build || out.Dir != in.Dir || out.StdinErr != in.StdinErr ||
		!slices.Equal(out.Args, in.Args) || !slices.Equal(out.Env, in.Env) {
		t.Errorf("got %+v, want %+v", out, in)
	}
}

func TestOtherProtocolKeepsOnlyItsVersion(t *testing.T) {
	var buf bytes.Buffer
	writeFields(&buf, "1", "whatever", "fields")
	var r Request
	if err := ReadRequest(&buf, &r); err != nil || r.Protocol != 1 || r.Build != "" {
		t.Errorf("got %+v, %v", r, err)
	}
}

func TestHeartbeatAndReply(t *testing.T) {
	var buf bytes.Buffer
	WriteHeartbeat(&buf)
	WriteReply(&buf, Reply{Code: 2, Status: &Status{PID: 7, Steps: 3}})
	if _, err := ReadReply(&buf); !errors.Is(err, ErrHeartbeat) {
		t.Fatalf("want a heartbeat, got %v", err)
	}
	r, err := ReadReply(&buf)
	if err != nil || r.Code != 2 || r.Status == nil || r.Status.PID != 7 || r.Status.Steps != 3 {
		t.Errorf("got %+v, %v", r, err)
	}
}

func TestLimits(t *testing.T) {
	var buf bytes.Buffer
	buf.Write([]byte{0xff, 0xff, 0xff, 0xff})
	if _, err := readFields(&buf); err == nil {
		t.Error("a header over the limit was read")
	}
	buf.Reset()
	WriteBody(&buf, make([]byte, 10))
	if _, err := ReadBody(&buf, 5); err == nil {
		t.Error("a body over the limit was read")
	}
}

// Whatever a peer sends, reading it returns a request or an error.
func FuzzReadRequest(f *testing.F) {
	var buf bytes.Buffer
	WriteRequest(&buf, &Request{Protocol: Protocol, Args: []string{"run"}, Env: []string{"A=1"}})
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 3, 5, 'a', 'b'})
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Request
		if err := ReadRequest(bytes.NewReader(b), &r); err == nil && r.Protocol == Protocol {
			var again bytes.Buffer
			if err := WriteRequest(&again, &r); err != nil {
				t.Fatal(err)
			}
			var r2 Request
			if err := ReadRequest(&again, &r2); err != nil || !slices.Equal(r.Args, r2.Args) || !slices.Equal(r.Env, r2.Env) {
				t.Fatalf("round trip: %+v vs %+v (%v)", r, r2, err)
			}
		}
	})
}
