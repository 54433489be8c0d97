// SPDX-License-Identifier: GPL-2.0-only
/* An output written under a temporary name, renamed when complete; see rvctr/output.h. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/output.h>

/*
 * A new file next to @out, .NAME.XXXXXX: mkstemp()'s 0600, or with
 * @shared 0666 less the umask.  Its path, and in *@fd its descriptor, or
 * NULL.
 */
static char *temp_next_to(const char *out, int shared, int *fd, char *err, size_t errlen)
{
	char *a = strdup(out), *b = strdup(out), *path = NULL;
	mode_t mask;

	*fd = -1;
	if (a && b && asprintf(&path, "%s/.%s.XXXXXX", dirname(a), basename(b)) > 0)
		*fd = mkostemp(path, O_CLOEXEC);
	if (*fd < 0) {
		snprintf(err, errlen, "%s: cannot create a file next to it: %s", out, strerror(errno));
		free(path);
		path = NULL;
		goto out;
	}
	if (shared) {
		mask = umask(0);
		umask(mask);
		if (fchmod(*fd, 0666 & ~mask)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			unlink(path);
			close(*fd);
			*fd = -1;
			free(path);
			path = NULL;
		}
	}
out:
	free(a);
	free(b);
	return path;
}

int rvctr_output__begin(struct rvctr_output *o, const char *name, unsigned int flags,
			char *err, size_t errlen)
{
	struct stat st;

	o->name = name;
	o->real = NULL;
	o->tmp = NULL;
	o->fd = -1;
	o->flags = flags;
	if (!strcmp(name, "-"))
		return 0;
	if (!lstat(name, &st) && S_ISLNK(st.st_mode)) {
		/*
		 * Through the link, as open() would go: a regular file it
		 * names is replaced and the link kept; anything else (a
		 * device, /dev/stdout's pipe or terminal, a dangling link) is
		 * written in place, never renamed over.
		 */
		if (stat(name, &st) || !S_ISREG(st.st_mode))
			return 0;
		o->real = realpath(name, NULL);
		if (!o->real) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			return -1;
		}
		o->name = o->real;
	} else if (!stat(name, &st) && !S_ISREG(st.st_mode)) {
		return 0;
	}
	o->tmp = temp_next_to(o->name, !(flags & RVCTR_OUTPUT_PRIVATE), &o->fd, err, errlen);
	if (o->tmp)
		return 0;
	free(o->real);
	o->real = NULL;
	return -1;
}

const char *rvctr_output__path(const struct rvctr_output *o)
{
	return o->tmp ? o->tmp : o->name;
}

int rvctr_output__fd(const struct rvctr_output *o)
{
	return o->tmp ? o->fd : -1;
}

/* Does the temporary file's name still lead to the file made for it? */
static int still_ours(const struct rvctr_output *o)
{
	struct stat named, made;

	return !lstat(o->tmp, &named) && !fstat(o->fd, &made) &&
	       named.st_dev == made.st_dev && named.st_ino == made.st_ino;
}

/*
 * perf_data__open()'s backup: a non-empty regular file of the name
 * becomes NAME.old.  0, or -1 with the reason in @err.
 */
static int backup(const char *name, char *err, size_t errlen)
{
	struct stat st;
	char *old;
	int ret = 0;

	if (stat(name, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	if (asprintf(&old, "%s.old", name) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (rename(name, old)) {
		snprintf(err, errlen, "cannot keep %s as %s: %s; %s left as it was", name, old,
			 strerror(errno), name);
		ret = -1;
	}
	free(old);
	return ret;
}

int rvctr_output__commit(struct rvctr_output *o, char *err, size_t errlen)
{
	int kept = 0;

	if (!o->tmp)
		goto done;
	/*
	 * Anyone who may write the directory may rename another file to the
	 * temporary name: that one is not put in place of the output.  (One
	 * renamed there between this check and the rename below would be:
	 * rename() cannot be told which file to move.)
	 */
	if (!still_ours(o)) {
		snprintf(err, errlen, "%s: %s is no longer the file written; %s left as it was",
			 o->name, o->tmp, o->name);
		rvctr_output__abort(o);
		return -1;
	}
	if (o->flags & RVCTR_OUTPUT_BACKUP) {
		if (backup(o->name, err, errlen)) {
			rvctr_output__abort(o);
			return -1;
		}
		kept = 1;
	}
	if (rename(o->tmp, o->name)) {
		snprintf(err, errlen, "%s: %s%s%s%s", o->name, strerror(errno),
			 kept ? " (an earlier file of the name is now " : "",
			 kept ? o->name : "", kept ? ".old)" : "");
		rvctr_output__abort(o);
		return -1;
	}
	close(o->fd);
	o->fd = -1;
	free(o->tmp);
	o->tmp = NULL;
done:
	free(o->real);
	o->real = NULL;
	return 0;
}

void rvctr_output__abort(struct rvctr_output *o)
{
	if (o->tmp) {
		if (still_ours(o))	/* else not ours to remove */
			unlink(o->tmp);
		close(o->fd);
		o->fd = -1;
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->real);
	o->real = NULL;
}
