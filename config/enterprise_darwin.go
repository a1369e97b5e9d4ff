package config

// defaultEnterpriseFile is where MDM tools put the system-wide hooks file
// on macOS.
const defaultEnterpriseFile = "/Library/Application Support/Cursor/hooks.json"
