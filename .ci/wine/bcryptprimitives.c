/*
 * A stand-in for bcryptprimitives.dll, which Wine 8 lacks: Go's runtime
 * on Windows loads it at start for ProcessPrng, its source of random
 * bytes. This one draws them from RtlGenRandom (SystemFunction036).
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
