// SPDX-License-Identifier: GPL-2.0-only
/* An output written under a temporary name, renamed when complete; see rvctr/output.h. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/output.h>

/*
 * A new file next to @out, .NAME.XXXXXX: mkstemp()'s 0600, or with
 * @shared 0666 less the umask.  Its path, or NULL.
 */
static char *temp_next_to(const char *out, int shared, char *err, size_t errlen)
{
	char *a = strdup(out), *b = strdup(out), *path = NULL;
	mode_t mask;
	int fd = -1;

	if (a && b && asprintf(&path, "%s/.%s.XXXXXX", dirname(a), basename(b)) > 0)
		fd = mkstemp(path);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a file next to it: %s", out, strerror(errno));
		free(path);
		path = NULL;
		goto out;
	}
	if (shared) {
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			unlink(path);
			free(path);
			path = NULL;
		}
	}
	close(fd);
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
	o->tmp = temp_next_to(o->name, !(flags & RVCTR_OUTPUT_PRIVATE), err, errlen);
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
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->real);
	o->real = NULL;
}
