/* Internal: keeping a software rasteriser's per-frame memory in the heap. */
#ifndef SG_RENDER_HEAP_H
#define SG_RENDER_HEAP_H

/* Raises glibc's heap trim and mmap thresholds the way glibc itself does
 * after a large block is freed, once a process; nothing elsewhere, nor where
 * the process has set its own thresholds (mallopt or GLIBC_TUNABLES). Called
 * at a render, after the scene is likely built: heap.c says why. */
void sg_heap_keep_frame_memory(void);

#endif
