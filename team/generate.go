// Package team holds the rules a team's hooks must keep, which the server
// applies when a hook is created or changed and every member's sync
// applies to what the server sends (script names, the manifest entry as
// the engine's loader reads it, the command that runs a script, the
// sandbox), so that both sides refuse the same mistakes in the same
// words. Below it are the team hooks API (proto, teamv1), the server
// (server, store, dashboard) and the client that syncs a team's hooks into
// the managed folder the engine loads as the team source (teamsync).
package team

// The generated code is committed, so building needs no protoc. To
// regenerate: apt-get install protobuf-compiler; go install
// google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12 and
// connectrpc.com/connect/cmd/protoc-gen-connect-go@v1.21.1; go generate ./team

//go:generate protoc --proto_path=proto --go_out=teamv1 --go_opt=paths=source_relative --connect-go_out=teamv1 --connect-go_opt=paths=source_relative team.proto
//go:generate go run ./internal/apidoc/gen
