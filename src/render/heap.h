/* Internal: keeping a software rasteriser's per-frame memory in the heap. */
#ifndef SG_RENDER_HEAP_H
#define SG_RENDER_HEAP_H

/* Raises glibc's heap trim threshold the way glibc itself does after a large
 * block is freed; nothing elsewhere, nor where the process has set its own
 * thresholds (mallopt or GLIBC_TUNABLES). See heap.c. */
void sg_heap_keep_frame_memory(void);

#endif
