// Package layers holds no code: its test locks the import layering of the
// module, as docs/architecture.md (section Layers) states it, against the
// real import graph, so an import that runs upward fails the build's tests
// instead of creeping in.
package layers
