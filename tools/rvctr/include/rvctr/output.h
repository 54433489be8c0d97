/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An output file that appears whole or not at all, as rvctr convert and
 * rvctr record write theirs.
 *
 * A regular file, or a name not yet taken, is written under a temporary
 * name next to it, .NAME.XXXXXX, created with mode 0666 less the umask
 * (what open(O_CREAT, 0666) would give NAME) or, for RVCTR_OUTPUT_PRIVATE,
 * 0600 (perf record's perf.data: kernel addresses, command lines), and
 * renamed over NAME by rvctr_output__commit() when complete.
 * rvctr_output__abort() removes it: NAME stays as it was.  Anything else
 * that exists ("-", standard output; a FIFO; a device such as /dev/null)
 * is written in place, since renaming over it would replace the node with
 * a file.  A symbolic link is followed as open() follows it: the regular
 * file it names is the one replaced, next to which the temporary file is
 * made, and the link stays; a link to anything else or to nothing is
 * written through in place.  A name that leads through a descriptor's link
 * (/proc/PID/fd/N, which /dev/stdout and /dev/fd/N lead to) names that
 * descriptor's file, a shell's redirection say, not a path: it is written
 * in place, through the descriptor when it is this process's (as "-" is:
 * its offset and O_APPEND hold), else opened to append; never renamed over,
 * truncated or backed up.
 *
 * A process that dies between begin and commit or abort (a signal it does
 * not catch) leaves the temporary file: rvctr record catches SIGINT,
 * SIGTERM and SIGHUP before it begins, and then commits.
 */
#ifndef RVCTR_OUTPUT_H
#define RVCTR_OUTPUT_H

#include <stddef.h>

/*
 * Commit moves a non-empty regular file of the name to NAME.old first,
 * replacing an earlier one, as perf record's backup does (record's; a
 * convert overwrites).  When that rename fails, the commit fails and NAME
 * is left as it was.
 */
#define RVCTR_OUTPUT_BACKUP	1
/* A new file gets mode 0600, not 0666 less the umask. */
#define RVCTR_OUTPUT_PRIVATE	2

struct rvctr_output {
	const char *given;	/* the output as given */
	const char *name;	/* the output: as given, or real */
	char *real;		/* the regular file a symbolic link names */
	char *tmp;		/* the temporary file; NULL: written in place */
	int fd;			/* tmp's, or a descriptor's file; open to commit or abort */
	unsigned int flags;	/* RVCTR_OUTPUT_* */
};

/*
 * Start writing @name (kept, not copied): 0, or -1 with the reason in
 * @err when no temporary file can be made next to it (or a descriptor's
 * file cannot be opened).
 */
int rvctr_output__begin(struct rvctr_output *o, const char *name, unsigned int flags,
			char *err, size_t errlen);
/*
 * The file to write: the temporary file, or the name itself.  The
 * temporary file is written through rvctr_output__fd(), never opened
 * again by this name, which anyone who may write the directory can point
 * at another file meanwhile.
 */
const char *rvctr_output__path(const struct rvctr_output *o);
/*
 * The descriptor of the temporary file, or of a descriptor's file written
 * in place (/dev/stdout, /proc/self/fd/N), open from begin to commit or
 * abort (the output's: write through a duplicate), or -1 when the output
 * is written in place by name: open rvctr_output__path() then.
 */
int rvctr_output__fd(const struct rvctr_output *o);
/* The output's name as given to begin, for messages (not the temporary file's). */
const char *rvctr_output__name(const struct rvctr_output *o);
/*
 * The file is written and closed: put it under its name.  0, or -1 with
 * the reason in @err and the temporary file removed; also when the
 * temporary name no longer leads to the file of the descriptor (another
 * file renamed there, left as it is): that one is not put in place.
 */
int rvctr_output__commit(struct rvctr_output *o, char *err, size_t errlen);
/*
 * Writing failed: remove the temporary file (if its name still leads to
 * it).  Also after a commit (a no-op).
 */
void rvctr_output__abort(struct rvctr_output *o);

#endif /* RVCTR_OUTPUT_H */
