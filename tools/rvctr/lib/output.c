// SPDX-License-Identifier: GPL-2.0-only
/* An output written under a temporary name, renamed when complete; see rvctr/output.h. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

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

/*
 * Does resolving @name go through a descriptor's link, /proc/PID/fd/N
 * (/dev/stdout and /dev/fd/N lead there)?  Such a link is not a path: it
 * is the file of a descriptor, a shell's redirection say, which is to be
 * written, not replaced.  1 (*@own_fd: N when PID is this process, else
 * -1), or 0.  Each component is looked at with lstat() and each link
 * followed by hand, so that one in the middle of the way is seen too.
 */
static int via_fd_link(const char *name, int *own_fd)
{
	char *rest = strdup(name), *prefix = malloc(PATH_MAX + 1), *at, *comp;
	int links = 0, ret = 0;

	*own_fd = -1;
	if (!rest || !prefix)
		goto out;
	/* from the working directory's physical path: ".." and /proc/self alike */
	if (name[0] == '/')
		strcpy(prefix, "/");
	else if (!getcwd(prefix, PATH_MAX + 1))
		goto out;
	at = rest;
	while (at && *at) {
		size_t plen = strlen(prefix);
		char cand[PATH_MAX + 1], target[PATH_MAX + 1];
		struct statfs sf;
		struct stat st;
		ssize_t n;

		comp = at;
		at = strchr(at, '/');
		if (at)
			*at++ = '\0';
		if (!*comp || !strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			/* @prefix has no links: its parent is lexical */
			char *slash = strrchr(prefix, '/');

			if (!strcmp(prefix, "/"))
				;			/* "/.." is "/" */
			else if (!plen || !strcmp(slash ? slash + 1 : prefix, "..")) {
				if (plen + 4 <= PATH_MAX)
					strcat(prefix, plen ? "/.." : "..");
			} else if (slash == prefix)
				prefix[1] = '\0';
			else if (slash)
				*slash = '\0';
			else
				prefix[0] = '\0';
			continue;
		}
		if (snprintf(cand, sizeof(cand), "%s%s%s", prefix,
			     plen && prefix[plen - 1] != '/' ? "/" : "", comp) >= (int)sizeof(cand) ||
		    lstat(cand, &st))
			break;	/* nothing there: no link further on */
		if (!S_ISLNK(st.st_mode)) {
			strcpy(prefix, cand);
			continue;
		}
		if (!statfs(prefix, &sf) && sf.f_type == PROC_SUPER_MAGIC &&
		    plen >= 3 && !strcmp(prefix + plen - 3, "/fd")) {
			struct stat dir, self;
			char *end;
			long fd = strtol(comp, &end, 10);

			/*
			 * The file of a descriptor; one further on (/dev/fd/3/x
			 * with 3 a directory) is a path, as for the kernel.
			 */
			if (at && *at)
				break;
			/* this process's fd directory, whatever its name or pid namespace */
			ret = 1;
			if (!*end && fd >= 0 && fd <= 0x7fffffff && !stat(prefix, &dir) &&
			    ((!stat("/proc/self/fd", &self) && dir.st_dev == self.st_dev &&
			      dir.st_ino == self.st_ino) ||
			     (!stat("/proc/thread-self/fd", &self) && dir.st_dev == self.st_dev &&
			      dir.st_ino == self.st_ino)))
				*own_fd = fd;
			break;
		}
		n = readlink(cand, target, sizeof(target) - 1);
		if (n < 0 || ++links > 40)
			break;
		target[n] = '\0';
		if (target[0] == '/')
			strcpy(prefix, "/");
		/* the link's target, then what was left of the name */
		if (snprintf(cand, sizeof(cand), "%s%s%s", target, at ? "/" : "", at ? at : "") >=
		    (int)sizeof(cand))
			break;
		free(rest);
		rest = strdup(cand);
		at = rest;
	}
out:
	free(rest);
	free(prefix);
	return ret;
}

int rvctr_output__begin(struct rvctr_output *o, const char *name, unsigned int flags,
			char *err, size_t errlen)
{
	struct stat st;
	int own;

	o->name = o->given = name;
	o->real = NULL;
	o->tmp = NULL;
	o->fd = -1;
	o->flags = flags;
	if (!strcmp(name, "-"))
		return 0;
	if (via_fd_link(name, &own)) {
		/*
		 * A descriptor's file (-o /dev/stdout under a shell's "> F" or
		 * ">> F"): written in place, through that descriptor when it
		 * is this process's, as "-" is, so that its offset and
		 * O_APPEND hold; another process's is opened to append, never
		 * truncated.  Never renamed over or backed up.
		 */
		o->fd = own >= 0 ? fcntl(own, F_DUPFD_CLOEXEC, 0) :
				   open(name, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (o->fd < 0) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			return -1;
		}
		if ((fcntl(o->fd, F_GETFL) & O_ACCMODE) == O_RDONLY) {
			snprintf(err, errlen, "%s: the descriptor is not open for writing", name);
			close(o->fd);
			o->fd = -1;
			return -1;
		}
		return 0;
	}
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
	return o->fd;
}

const char *rvctr_output__name(const struct rvctr_output *o)
{
	return o->given;
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

	if (!o->tmp) {
		if (o->fd >= 0)
			close(o->fd);	/* a descriptor's file, written in place */
		o->fd = -1;
		goto done;
	}
	/*
	 * Anyone who may write the directory may rename another file to the
	 * temporary name: that one is not put in place of the output.  (One
	 * renamed there between this check and the rename below would be:
	 * rename() cannot be told which file to move.)
	 */
	if (!still_ours(o)) {
		struct stat st;

		if (lstat(o->tmp, &st) && errno == ENOENT)
			snprintf(err, errlen, "%s: its temporary file %s was removed before it "
				 "was complete; %s left as it was", o->name, o->tmp, o->name);
		else
			snprintf(err, errlen, "%s: %s is no longer the file written; %s left as "
				 "it was", o->name, o->tmp, o->name);
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
	} else if (o->fd >= 0) {
		close(o->fd);	/* a descriptor's file: what was written stays */
		o->fd = -1;
	}
	free(o->real);
	o->real = NULL;
}
