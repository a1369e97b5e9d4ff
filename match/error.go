package match

import (
	"errors"
	"fmt"

	"github.com/dlclark/regexp2/syntax"
)

// SyntaxError reports a matcher that is not a valid regular expression.
// Config validation shows it to the user, so Msg says what is wrong in
// plain words rather than naming a grammar production.
type SyntaxError struct {
	Pattern string
	Offset  int    // byte offset in Pattern where the problem was found
	Msg     string // what is wrong, e.g. "missing closing )"
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid regular expression %q: %s", e.Pattern, e.Msg)
}

// engineError turns an error from regexp2 into a SyntaxError. The parser
// rejects everything JavaScript rejects before regexp2 sees the pattern,
// so this is only reached on limits of that engine.
func engineError(pattern string, err error) error {
	msg := err.Error()
	var se *syntax.Error
	if errors.As(err, &se) {
		msg = string(se.Code)
		if len(se.Args) > 0 {
			msg = fmt.Sprintf(msg, se.Args...)
		}
	}
	return &SyntaxError{Pattern: pattern, Msg: msg}
}
