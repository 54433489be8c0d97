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

/* A new file next to @out, .NAME.XXXXXX with mode 0666 less the umask: its path, or NULL. */
static char *temp_next_to(const char *out, char *err, size_t errlen)
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
	} else {
		/* mkstemp() makes it 0600 */
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
		close(fd);
	}
	free(a);
	free(b);
	return path;
}

int rvctr_output__begin(struct rvctr_output *o, const char *name, unsigned int flags,
			char *err, size_t errlen)
{
	struct stat st;

	o->name = name;
	o->tmp = NULL;
	o->flags = flags;
	if (!strcmp(name, "-") || (!stat(name, &st) && !S_ISREG(st.st_mode)))
		return 0;
	o->tmp = temp_next_to(name, err, errlen);
	return o->tmp ? 0 : -1;
}

const char *rvctr_output__path(const struct rvctr_output *o)
{
	return o->tmp ? o->tmp : o->name;
}

/* perf_data__open()'s backup: a non-empty regular file of the name becomes NAME.old. */
static void backup(const char *name)
{
	struct stat st;
	char *old;

	if (stat(name, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	if (asprintf(&old, "%s.old", name) < 0)
		return;
	if (rename(name, old))
		fprintf(stderr, "rvctr: warning: cannot keep %s as %s: %s\n", name, old,
			strerror(errno));
	free(old);
}

int rvctr_output__commit(struct rvctr_output *o, char *err, size_t errlen)
{
	if (!o->tmp)
		return 0;
	if (o->flags & RVCTR_OUTPUT_BACKUP)
		backup(o->name);
	if (rename(o->tmp, o->name)) {
		snprintf(err, errlen, "%s: %s", o->name, strerror(errno));
		rvctr_output__abort(o);
		return -1;
	}
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void rvctr_output__abort(struct rvctr_output *o)
{
	if (!o->tmp)
		return;
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}
