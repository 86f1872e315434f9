/* Mesa's llvmpipe bins every frame into 64 KiB blocks that it mallocs while
 * the frame is drawn and frees when it has been rasterised, all but one. At
 * glibc's initial settings, memory freed at the top of the heap beyond 128 KiB
 * goes back to the kernel (brk), so the next frame faults the same pages in
 * again, zero-filled: on flat-1000 (1000 textured quads at 1024 x 1024) about
 * 150 page faults a frame, a quarter of the frame's time, and a figure that
 * changed from process to process with where the blocks happened to lie.
 *
 * glibc raises the threshold by itself the first time the process frees a
 * block that it had to map on its own (above 128 KiB, up to 32 MiB on 64-bit
 * systems): the trim threshold becomes twice that block's size, and blocks up
 * to that size come from the heap from then on. A program that has loaded a
 * large image or freed a large array has done so already; a scene's growing
 * arrays do not (realloc moves their mappings). Freeing one 31 MiB block,
 * never touched (so never resident), makes it so: frames of up to 62 MiB of
 * binning data reuse the heap (tree-32768, 65536 triangles a frame, faulted
 * 2000 pages a frame after a 4 MiB block and none after this one). The cost,
 * as in any process that once freed a block that large: up to 62 MiB freed
 * at the top of the heap stays with the process, and blocks of up to 31 MiB
 * come from the heap rather than mappings of their own, so that growing
 * arrays are copied rather than remapped, and their old blocks stay. That
 * is why it is done at the first render, not when the renderer is made:
 * most programs have built their scene by then (tree-1048576 built after it
 * peaked at 475 MiB instead of 443). This is glibc's own adaptive rule,
 * not a setting: where the process has fixed its thresholds (mallopt,
 * GLIBC_TUNABLES) glibc leaves them alone; 32-bit glibc, whose ceiling is
 * 512 KiB, and other allocators are not affected. */
#include "heap.h"

#include <stdatomic.h>
#include <stdlib.h>

/* below glibc's 32 MiB ceiling, chunk header and page rounding included */
#define TRIGGER_BYTES ((size_t)31 << 20)

void sg_heap_keep_frame_memory(void)
{
#ifdef __GLIBC__
	static atomic_flag done = ATOMIC_FLAG_INIT; /* once a process is enough */
	if (atomic_flag_test_and_set(&done))
		return;
	/* volatile: a malloc whose block is freed unused may be left out */
	void *volatile block = malloc(TRIGGER_BYTES);
	free(block);
#endif
}
