/* bcryptprimitives.dll for Wine 8, which lacks it: Rust's std on Windows gets its random
 * bytes (HashMap's keys) from ProcessPrng, which Windows 10+ and Wine 9 export and Debian's
 * Wine 8.0 does not, so contention.exe stops at start with "bcryptprimitives.dll not found".
 * This DLL, placed beside the exe (Windows looks there first), exports ProcessPrng over
 * advapi32's RtlGenRandom (SystemFunction036), which Wine 8 has. Built by .ci/windows; a
 * Windows machine never needs it. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Fills `data` with `length` random bytes; RtlGenRandom takes at most a ULONG per call. */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
