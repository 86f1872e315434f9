#ifndef SG_EXPORT_H
#define SG_EXPORT_H

/* The library is built with -fvisibility=hidden: only SG_API symbols are exported. */
#if defined(SG_BUILDING_LIBRARY) && defined(__GNUC__)
#define SG_API __attribute__((visibility("default")))
#else
#define SG_API
#endif

/* A function that reads or fills a struct the caller allocated is exported as
 * NAME_sized(..., size_t size), and NAME(...) is a macro that appends sizeof
 * the struct as the caller's header defines it: so a libsg newer or older
 * than the header reads and writes only the caller's bytes, and a member
 * added at a struct's end breaks no program (docs/abi.md). Call NAME; where a
 * function pointer is needed, take NAME_sized and pass the sizeof yourself. */

#endif
