package sandbox

import _ "embed"

// schema is the JSON Schema of sandbox.json that editors and validate use.
// Parse is the authority; TestSchemaAgreesWithParse holds the two together
// on every field.
//
//go:embed schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of sandbox.json.
func Schema() []byte { return append([]byte(nil), schema...) }
