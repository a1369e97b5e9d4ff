package install

// Installed and CommandLine give the external tests what install checks a
// file and writes a command with (installed, command).
func Installed(a *Agent, data []byte) bool { return installed(a, data) }

func CommandLine(bin, agent string) string { return command(bin, agent) }
