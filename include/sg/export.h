#ifndef SG_EXPORT_H
#define SG_EXPORT_H

/* The library is built with -fvisibility=hidden: only SG_API symbols are exported. */
#if defined(SG_BUILDING_LIBRARY) && defined(__GNUC__)
#define SG_API __attribute__((visibility("default")))
#else
#define SG_API
#endif

#endif
