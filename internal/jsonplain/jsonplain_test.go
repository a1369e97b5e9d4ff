package jsonplain

import (
	"strings"
	"testing"
)

func TestMarshal(t *testing.T) {
	b, err := Marshal(map[string]string{"c": "a 2>&1 <b>"})
	if err != nil || string(b) != `{"c":"a 2>&1 <b>"}` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	b, err = MarshalIndent(map[string]any{"a": []int{1}}, "  ", "\t")
	if err != nil || string(b) != "{\n  \t\"a\": [\n  \t\t1\n  \t]\n  }" {
		t.Errorf("MarshalIndent = %q, %v", b, err)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("a func encoded")
	}
}

func TestNewEncoder(t *testing.T) {
	var b strings.Builder
	if err := NewEncoder(&b).Encode("a 2>&1 <b>"); err != nil || b.String() != "\"a 2>&1 <b>\"\n" {
		t.Errorf("Encode wrote %q, %v", b.String(), err)
	}
}
