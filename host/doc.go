// Package host is agenthooks as a host runs it: the engine assembled with
// the trust store, the sessions and execution log of the state store, the
// model client of prompt hooks, the in-process policy runner and every
// source, and one call that answers a step end to end: a payload in, the
// answer in the asking agent's own form out (Cursor's JSON, or Claude
// Code's, Codex's, Gemini CLI's, Copilot's, OpenCode's, the hook
// contract's). Every CLI verb that runs hooks goes through it, and so does
// a Go program that imports agenthooks: both get the same engine.
//
// agenthooks is a security boundary, so host never fails open on a fault
// of its own:
//
//   - A fault that is not about the decision degrades and is said once as
//     a warning: a state store that cannot be opened keeps sessions in
//     memory and drops or spools the records; a trust store that cannot
//     be read leaves project hooks untrusted while the other sources run;
//     a bad model setting makes every prompt hook fail (its failClosed
//     applies); a bad value of any other variable takes its default.
//   - When the step cannot be decided at all (a payload that cannot be
//     read, a panic), every hook that would have applied counts as
//     failed: if one is failClosed the step is blocked, in the agent's
//     own blocking form; otherwise the answer is "no opinion" with a
//     warning.
//   - The answer comes before the log: records are kept in memory during
//     the run and written by Flush or Close, after the caller printed the
//     answer, with a short bounded wait.
//
// docs/faults.md has the table of every fault and what each agent sees.
package host
