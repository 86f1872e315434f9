/* The node kinds (node_kind.h). */
#include "node_kind.h"

static const struct sg_node_kind_info kinds[] = {
	[SG_NODE_INVALID] = {"node", false},
	[SG_NODE_GROUP] = {"group", true},
	[SG_NODE_TRANSFORM] = {"transform", true},
	[SG_NODE_MODEL] = {"model", false},
	[SG_NODE_TEXT] = {"text node", false},
	[SG_NODE_VIEW3D] = {"3D view", true},
	[SG_NODE_LIGHT] = {"light", false},
	[SG_NODE_CLIP] = {"clip", true},
};

const struct sg_node_kind_info *sg_node_kind_info(enum sg_node_kind kind)
{
	unsigned k = (unsigned)kind;
	return k < sizeof(kinds) / sizeof(kinds[0]) ? &kinds[k] : &kinds[SG_NODE_INVALID];
}
