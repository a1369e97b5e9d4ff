// Package team holds the team hooks API and its implementations: the
// server that distributes hooks to an organisation, its storage, its
// dashboard, and the client that syncs them into the managed folder the
// engine loads as the team source.
package team

// The generated code is committed, so building needs no protoc. To
// regenerate: apt-get install protobuf-compiler; go install
// google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12 and
// connectrpc.com/connect/cmd/protoc-gen-connect-go@v1.21.1; go generate ./team

//go:generate protoc --proto_path=proto --go_out=teamv1 --go_opt=paths=source_relative --connect-go_out=teamv1 --connect-go_opt=paths=source_relative team.proto
