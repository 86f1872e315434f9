/* libsg: a retained scene-graph rendering toolkit. The umbrella header. */
#ifndef SG_SG_H
#define SG_SG_H

#include <sg/animation.h>
#include <sg/camera.h>
#include <sg/dmabuf.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/image.h>
#include <sg/log.h>
#include <sg/model_file.h>
#include <sg/output.h>
#include <sg/input.h>
#include <sg/window.h>
#include <sg/pick.h>
#include <sg/renderer.h>
#include <sg/scene.h>
#include <sg/scene3d.h>
#include <sg/scene_file.h>
#include <sg/session.h>
#include <sg/shape.h>
#include <sg/text.h>
#include <sg/version.h>

#endif
