package cli

// The sample hook written by init on Windows: a PowerShell script, run
// through powershell.exe so the execution policy does not stop it.
const (
	sampleScriptName = "beforeSubmitPrompt.ps1"
	sampleScriptMode = 0o644
	sampleLogHint    = "%TEMP%\\agent.log"
)

// sampleCommand is the hooks.json command that runs the script at rel,
// a path relative to where the file's hooks run.
func sampleCommand(rel string) string {
	return "powershell -NoProfile -ExecutionPolicy Bypass -File " + rel
}

const sampleScript = `# Sample beforeSubmitPrompt hook, created by "agenthooks init".
#
# It gets the prompt's JSON payload on stdin, appends it to a log file and
# prints {}: no opinion, so the prompt is submitted. To block a prompt,
# print {"continue": false, "user_message": "why"} instead, or exit 2.
$log = Join-Path ([System.IO.Path]::GetTempPath()) 'agent.log'
$payload = [Console]::In.ReadToEnd()
$stamp = (Get-Date).ToUniversalTime().ToString('yyyy-MM-ddTHH:mm:ssZ')
Add-Content -Path $log -Value "$stamp $payload" -ErrorAction SilentlyContinue
Write-Output '{}'
`
