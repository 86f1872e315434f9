/* The NV12 test image and its CPU reference, shared by the import suite
 * (drawn by the NV12 material from memory) and the drm suite (a real
 * dma-buf): luma per pixel, chroma constant over each 2x2 block (one chroma
 * sample), so that nearest sampling has one right answer; the reference is
 * Y'CbCr to R'G'B' by the matrix of Kr, Kb, in the range, written here
 * apart from the shader it checks. */
#ifndef SG_TESTS_NV12_REFERENCE_H
#define SG_TESTS_NV12_REFERENCE_H

#include <stdint.h>

#include <sg/dmabuf.h>

uint8_t nv12_y(int x, int y);
void nv12_cbcr(int x, int y, uint8_t *cb, uint8_t *cr);
void nv12_reference(enum sg_yuv_encoding encoding, enum sg_yuv_range range, int x, int y,
                    uint8_t rgba[4]);

#endif
