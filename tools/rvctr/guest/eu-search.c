// SPDX-License-Identifier: GPL-2.0-only
/*
 * elfutils 0.192's static libelf.a and libdw.a call its internal tree
 * wrappers (lib/eu-search.c, in libeu), which Debian trixie's libelf-dev
 * does not ship in any static archive (upstream adds libeu's objects to
 * libelf.a in 0.193).  The guest build links them from here.  Each
 * wrapper is the tsearch(3) call on the tree's root, which is the first
 * member of elfutils' search_tree; the rwlock after it (built with
 * --enable-thread-safety only) serves threaded callers, and rvctr calls
 * elfutils from one thread.
 */
#include <search.h>
#include <stddef.h>

typedef struct {
	void *root;
} search_tree;

void *eu_tsearch(const void *key, search_tree *tree, __compar_fn_t cmp);
void *eu_tfind(const void *key, search_tree *tree, __compar_fn_t cmp);
void *eu_tdelete(const void *key, search_tree *tree, __compar_fn_t cmp);
void eu_tdestroy(search_tree *tree, void (*free_node)(void *));
void eu_search_tree_init(search_tree *tree);
void eu_search_tree_fini(search_tree *tree, void (*free_node)(void *));

void *eu_tsearch(const void *key, search_tree *tree, __compar_fn_t cmp)
{
	return tsearch(key, &tree->root, cmp);
}

void *eu_tfind(const void *key, search_tree *tree, __compar_fn_t cmp)
{
	return tfind(key, &tree->root, cmp);
}

void *eu_tdelete(const void *key, search_tree *tree, __compar_fn_t cmp)
{
	return tdelete(key, &tree->root, cmp);
}

void eu_tdestroy(search_tree *tree, void (*free_node)(void *))
{
	tdestroy(tree->root, free_node);
	tree->root = NULL;
}

void eu_search_tree_init(search_tree *tree)
{
	tree->root = NULL;
}

void eu_search_tree_fini(search_tree *tree, void (*free_node)(void *))
{
	eu_tdestroy(tree, free_node);
}
