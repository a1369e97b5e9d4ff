package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/sandbox"
)

type schemaOptions struct {
	io      *IO
	output  string
	sandbox bool
}

func newSchemaCmd(s *IO) *cobra.Command {
	o := &schemaOptions{io: s}
	cmd := &cobra.Command{
		Use:   "schema [--output FILE]",
		Short: "Print the JSON Schema of hooks.json",
		Long: `Schema prints the JSON Schema (draft 2020-12) of the hooks.json format, generated
from the same definition the loader checks against. Point an editor at it for
completion and inline errors; validate applies it too.`,
		Example: `  agenthooks schema > hooks.schema.json`,
		Args:    cobra.NoArgs,
		RunE:    func(*cobra.Command, []string) error { return o.run() },
	}
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the schema to FILE (replacing it) instead of stdout")
	cmd.Flags().BoolVar(&o.sandbox, "sandbox", false, "print the schema of sandbox.json instead ("+docsURL+"sandbox.md)")
	return cmd
}

func (o *schemaOptions) run() error {
	b := config.Schema()
	if o.sandbox {
		b = sandbox.Schema()
	}
	if b == nil {
		return fmt.Errorf("schema: the hooks.json schema could not be generated")
	}
	if o.output == "" {
		_, err := o.io.Out.Write(b)
		return err
	}
	if err := os.WriteFile(o.output, b, 0o644); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	return nil
}
