package cli

import "github.com/agenthooks/agenthooks/internal/shellquote"

// execQuoteArgs joins an argv into the one command line hooks see. It is
// the line the platform shell would split back into the same words, so a
// hook that matches "^git push" or pastes the command into a shell sees
// exactly what will run.
func execQuoteArgs(args []string) string { return shellquote.Command(args) }
