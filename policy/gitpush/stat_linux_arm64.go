package gitpush

import "syscall"

const sysFstatat = syscall.SYS_FSTATAT
