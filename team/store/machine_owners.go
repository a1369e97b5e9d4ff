package store

import "sync"

// maxMachineOwners bounds machineOwners: past it, the memo starts over.
const maxMachineOwners = 1_000_000

// machineOwners remembers the machine ids this process saw bound to the
// token that reports them, so that a fleet flush checks only the ids it
// has not seen: a binding is never changed or removed, so what was once
// committed stays true for every replica.
type machineOwners struct {
	mu sync.Mutex
	m  map[machineOwner]struct{}
}

// machineOwner is a machine id and the token that owns it.
type machineOwner struct {
	team    int64
	machine string
	token   int64
}

// unknown reports, for each of reports, whether it needs its binding
// checked: it carries a token and the memo does not know that this token
// owns its machine id. It takes the lock once for the whole flush.
func (o *machineOwners) unknown(reports []MachineReport) []bool {
	out := make([]bool, len(reports))
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, m := range reports {
		if m.TokenID != 0 {
			_, known := o.m[machineOwner{m.TeamID, m.MachineID, m.TokenID}]
			out[i] = !known
		}
	}
	return out
}

// learn remembers bindings, once the transaction that read or made them
// has committed.
func (o *machineOwners) learn(ks []machineOwner) {
	if len(ks) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil || len(o.m)+len(ks) > maxMachineOwners {
		o.m = make(map[machineOwner]struct{}, len(ks))
	}
	for _, k := range ks {
		o.m[k] = struct{}{}
	}
}
