package config

// defaultEnterpriseFile is where MDM tools put the system-wide hooks file
// on Windows.
const defaultEnterpriseFile = `C:\ProgramData\Cursor\hooks.json`
