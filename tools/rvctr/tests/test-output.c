// SPDX-License-Identifier: GPL-2.0-only
/*
 * An output written whole or not at all (rvctr/output.h): the temporary
 * file next to the name and its mode, commit with and without the
 * NAME.old backup, abort, a failed rename, "-", a FIFO and symbolic links;
 * another file renamed to the temporary name meanwhile, with each format
 * writing the output.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/machine.h>
#include <rvctr/output.h>
#include <rvctr/sink.h>

#include "tests.h"

static char dir[] = "/tmp/rvctr-output-XXXXXX";

static const char *at(const char *name)
{
	static char path[4][4096];
	static unsigned int n;
	char *p = path[n++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The file's text ("" when empty), or NULL when there is none. */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/*
 * The names in the directory that start with '.' (temporary files left),
 * after removing every entry when @clear.
 */
static int hidden(int clear)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n += e->d_name[0] == '.';
		if (clear)
			unlink(at(e->d_name));
	}
	if (d)
		closedir(d);
	return n;
}

static void test_new_file(void)
{
	struct rvctr_output o;
	const char *p, *base;
	char err[256] = "";
	struct stat st;
	mode_t mask = umask(027);

	T_EQ(rvctr_output__begin(&o, at("new.data"), 0, err, sizeof(err)), 0, "begin: a new name");
	p = rvctr_output__path(&o);
	base = strrchr(p, '/');
	T_OK(!strncmp(p, dir, strlen(dir)) && base && base == p + strlen(dir) &&
	     !strncmp(base, "/.new.data.", 11) && strlen(base) == 17,
	     "the temporary file is .NAME.XXXXXX next to it");
	T_OK(!stat(p, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0640,
	     "it is created with mode 0666 less the umask (027: 0640)");
	T_OK(access(at("new.data"), F_OK), "nothing under the name before commit");
	put(p, "new");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), 0, "commit");
	T_STREQ(get(at("new.data")), "new", "commit: the file is under its name");
	T_OK(!stat(at("new.data"), &st) && (st.st_mode & 0777) == 0640, "... with that mode");
	T_EQ(hidden(0), 0, "no temporary file left");
	rvctr_output__abort(&o);
	T_STREQ(get(at("new.data")), "new", "abort after commit changes nothing");

	/* perf.data: 0600 whatever the umask, as perf writes it */
	rvctr_output__begin(&o, at("p.data"), RVCTR_OUTPUT_PRIVATE, err, sizeof(err));
	T_OK(!stat(rvctr_output__path(&o), &st) && (st.st_mode & 0777) == 0600,
	     "RVCTR_OUTPUT_PRIVATE: the file is made 0600");
	rvctr_output__commit(&o, err, sizeof(err));
	T_OK(!stat(at("p.data"), &st) && (st.st_mode & 0777) == 0600, "... and stays 0600");
	umask(mask);
}

static void test_backup(void)
{
	struct rvctr_output o;
	char err[256] = "";

	/* convert's: an earlier file is overwritten, no NAME.old */
	put(at("c.data"), "old");
	rvctr_output__begin(&o, at("c.data"), 0, err, sizeof(err));
	put(rvctr_output__path(&o), "new");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), 0, "commit over an earlier file");
	T_STREQ(get(at("c.data")), "new", "... replaces it");
	T_OK(!get(at("c.data.old")), "... without RVCTR_OUTPUT_BACKUP: no NAME.old");

	/* record's: NAME.old, replacing an earlier one */
	put(at("r.data"), "first");
	put(at("r.data.old"), "older");
	rvctr_output__begin(&o, at("r.data"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	put(rvctr_output__path(&o), "second");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), 0, "commit with RVCTR_OUTPUT_BACKUP");
	T_STREQ(get(at("r.data")), "second", "... the new file under the name");
	T_STREQ(get(at("r.data.old")), "first", "... the earlier one as NAME.old");

	/* an empty earlier file is no recording to keep (perf's rule) */
	put(at("e.data"), "");
	put(at("e.data.old"), "older");
	rvctr_output__begin(&o, at("e.data"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	put(rvctr_output__path(&o), "x");
	rvctr_output__commit(&o, err, sizeof(err));
	T_STREQ(get(at("e.data.old")), "older", "an empty earlier file is not kept as NAME.old");

	/* a failed write: the earlier file stays, no NAME.old */
	put(at("f.data"), "kept");
	unlink(at("f.data.old"));
	rvctr_output__begin(&o, at("f.data"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	put(rvctr_output__path(&o), "partial");
	rvctr_output__abort(&o);
	T_STREQ(get(at("f.data")), "kept", "abort: the earlier file is as it was");
	T_OK(!get(at("f.data.old")), "abort: no NAME.old");
	T_EQ(hidden(0), 0, "abort: the temporary file is removed");

	/* NAME.old cannot be made (a directory, say): the commit fails, NAME kept */
	put(at("b.data"), "earlier");
	mkdir(at("b.data.old"), 0755);
	put(at("b.data.old/f"), "");
	rvctr_output__begin(&o, at("b.data"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	put(rvctr_output__path(&o), "new");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), -1, "a failed backup: the commit fails");
	T_OK(strstr(err, "cannot keep") && strstr(err, "b.data.old"), "... saying why");
	T_STREQ(get(at("b.data")), "earlier", "... and the earlier file stays under its name");
	T_EQ(hidden(0), 0, "... no temporary file left");
	unlink(at("b.data.old/f"));
	rmdir(at("b.data.old"));
}

static void test_failed_rename(void)
{
	struct rvctr_output o;
	char err[256] = "";

	/* the name becomes a non-empty directory while the file is written */
	rvctr_output__begin(&o, at("d.data"), 0, err, sizeof(err));
	put(rvctr_output__path(&o), "x");
	mkdir(at("d.data"), 0755);
	put(at("d.data/f"), "");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), -1, "a failed rename: -1");
	T_OK(strstr(err, "d.data: ") != NULL, "... naming the output");
	T_EQ(hidden(0), 0, "... and the temporary file removed");
	unlink(at("d.data/f"));
	rmdir(at("d.data"));
}

static void test_in_place(void)
{
	struct rvctr_output o;
	char err[256] = "";
	struct stat st;

	T_EQ(rvctr_output__begin(&o, "-", 0, err, sizeof(err)), 0, "begin: -");
	T_STREQ(rvctr_output__path(&o), "-", "- (standard output) is written in place");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), 0, "commit of -");

	mkfifo(at("fifo"), 0644);
	rvctr_output__begin(&o, at("fifo"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	T_STREQ(rvctr_output__path(&o), at("fifo"), "a FIFO is written in place");
	rvctr_output__commit(&o, err, sizeof(err));
	T_OK(!lstat(at("fifo"), &st) && S_ISFIFO(st.st_mode), "... and stays a FIFO");

	/* a link to a device is written through */
	symlink("/dev/null", at("null.link"));
	rvctr_output__begin(&o, at("null.link"), 0, err, sizeof(err));
	T_STREQ(rvctr_output__path(&o), at("null.link"), "a link to /dev/null is written through");
	rvctr_output__commit(&o, err, sizeof(err));
	T_OK(!lstat(at("null.link"), &st) && S_ISLNK(st.st_mode), "... and stays a link");

	/*
	 * a link to a regular file: the file is replaced, the link kept,
	 * the temporary file next to the file (here in another directory)
	 */
	mkdir(at("sub"), 0755);
	put(at("sub/target"), "target");
	symlink("sub/target", at("file.link"));
	T_EQ(rvctr_output__begin(&o, at("file.link"), 0, err, sizeof(err)), 0,
	     "begin: a link to a regular file");
	T_OK(!strncmp(rvctr_output__path(&o), at("sub/.target."), strlen(at("sub/.target."))),
	     "... the temporary file is next to the file it names");
	put(rvctr_output__path(&o), "new");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), 0, "... commit");
	T_OK(!lstat(at("file.link"), &st) && S_ISLNK(st.st_mode), "... the link stays a link");
	T_STREQ(get(at("sub/target")), "new", "... and the file it names is replaced");
	unlink(at("sub/target"));
	T_EQ(hidden(0), 0, "no temporary file left");

	/*
	 * /dev/stdout's case: a link to a FIFO (or a pipe, a terminal) is
	 * written through, neither replaced nor backed up
	 */
	mkfifo(at("sub/pipe"), 0644);
	symlink("sub/pipe", at("pipe.link"));
	rvctr_output__begin(&o, at("pipe.link"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	T_STREQ(rvctr_output__path(&o), at("pipe.link"), "a link to a FIFO is written through");
	rvctr_output__commit(&o, err, sizeof(err));
	T_OK(!lstat(at("pipe.link"), &st) && S_ISLNK(st.st_mode) &&
	     !lstat(at("sub/pipe"), &st) && S_ISFIFO(st.st_mode) && !get(at("pipe.link.old")),
	     "... and both stay as they were, no NAME.old");
	unlink(at("sub/pipe"));
	rmdir(at("sub"));

	/* a dangling link: written through, as open(O_CREAT) does */
	symlink("nowhere", at("dangling.link"));
	rvctr_output__begin(&o, at("dangling.link"), 0, err, sizeof(err));
	T_STREQ(rvctr_output__path(&o), at("dangling.link"), "a dangling link is written through");
	rvctr_output__abort(&o);
}

/*
 * Another file renamed to the temporary name while the output is written,
 * as anyone who may write the directory can: it is not put in place of
 * the output, nor removed.
 */
static void test_swapped(void)
{
	struct rvctr_output o;
	char err[256] = "", *tmp;

	put(at("w.data"), "earlier");
	rvctr_output__begin(&o, at("w.data"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	tmp = strdup(rvctr_output__path(&o));
	put(tmp, "ours");
	rename(tmp, at("moved"));
	put(tmp, "theirs");
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), -1,
	     "the temporary name leads to another file: the commit fails");
	T_OK(strstr(err, "no longer the file written") != NULL, "... saying why");
	T_STREQ(get(at("w.data")), "earlier", "... the name keeps its file");
	T_OK(!get(at("w.data.old")), "... no NAME.old");
	T_STREQ(get(tmp), "theirs", "... and the other file is left where it is");
	unlink(tmp);
	unlink(at("moved"));
	free(tmp);

	/* the temporary file removed meanwhile: said so */
	rvctr_output__begin(&o, at("w.data"), RVCTR_OUTPUT_BACKUP, err, sizeof(err));
	put(rvctr_output__path(&o), "ours");
	unlink(rvctr_output__path(&o));
	T_EQ(rvctr_output__commit(&o, err, sizeof(err)), -1, "the temporary file removed: "
	     "the commit fails");
	T_OK(strstr(err, "was removed") != NULL, "... saying it was removed");
	T_STREQ(get(at("w.data")), "earlier", "... the name keeps its file");
	unlink(at("w.data"));
}

/* The sinks' machine (autofdo asks it where records are), fed before them. */
static struct rvctr_machine *machine;

/* A sample of one branch in an anonymous map of pid 7, for every format. */
static void feed(struct rvctr_sink *s)
{
	struct perf_branch_entry br = { .from = 0x10010, .to = 0x10040 };
	struct rvctr_event ev = { .type = PERF_RECORD_MMAP2, .time = 1 };

	ev.mmap = (struct rvctr_mmap){ .pid = 7, .tid = 7, .start = 0x10000, .len = 0x1000,
				       .misc = PERF_RECORD_MISC_USER, .filename = "[jit]" };
	rvctr_machine__input(machine);
	rvctr_machine__event(machine, &ev);
	rvctr_sink__event(s, &ev);
	ev = (struct rvctr_event){ .type = PERF_RECORD_SAMPLE, .time = 2 };
	ev.sample = (struct rvctr_sample){ .pid = 7, .tid = 7, .time = 2, .ip = 0x10040,
					   .period = 1, .nr_branches = 1, .branches = &br,
					   .misc = PERF_RECORD_MISC_USER };
	rvctr_sink__event(s, &ev);
}

/* @format's sink written to the begun @o, fed, closed and committed: 0 or -1 */
static int write_out(struct rvctr_output *o, const char *format, char *err, size_t errlen)
{
	struct rvctr_sink_info info = { .arch = "riscv64", .out = o, .machine = machine };
	struct rvctr_sink *s;
	int ret;

	info.path = rvctr_output__name(o);
	s = rvctr_sink__open(rvctr_sink__find(format), &info, err, errlen);
	if (s)
		feed(s);
	ret = s ? rvctr_sink__close(s, err, errlen) : -1;
	if (!ret)
		ret = rvctr_output__commit(o, err, errlen);
	rvctr_output__abort(o);
	return ret;
}

/*
 * Every format writes the file made at begin, through its descriptor, not
 * whatever its name leads to when the format opens it: here another file
 * renamed there in between, which stays as it was.  Without that, the
 * file committed is the one the descriptor wrote.
 */
static void test_written_through_fd(void)
{
	static const char *const formats[] = { "perf", "spe", "perfscript", "autofdo" };
	unsigned int i, swap;
	char err[256], what[128];

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		for (swap = 0; swap < 2; swap++) {
			struct rvctr_output o;
			struct rvctr_sink_info info = { .arch = "riscv64", .out = &o, .machine = machine };
			struct rvctr_sink *s;
			struct stat made, st;
			char *tmp;
			int ret;

			err[0] = 0;
			rvctr_output__begin(&o, at("s.out"), 0, err, sizeof(err));
			tmp = strdup(rvctr_output__path(&o));
			fstat(rvctr_output__fd(&o), &made);
			info.path = tmp;
			if (swap) {
				rename(tmp, at("moved"));
				put(tmp, "theirs");
			}
			s = rvctr_sink__open(rvctr_sink__find(formats[i]), &info, err, sizeof(err));
			if (s)
				feed(s);
			ret = s ? rvctr_sink__close(s, err, sizeof(err)) : -1;
			snprintf(what, sizeof(what), "%s: written%s", formats[i],
				 swap ? ", the temporary name swapped" : "");
			T_EQ(ret, 0, what);
			if (ret)
				printf("# %s\n", err);
			if (swap) {
				snprintf(what, sizeof(what), "%s: the file made at begin holds it",
					 formats[i]);
				T_OK(!stat(at("moved"), &st) && st.st_ino == made.st_ino &&
				     st.st_size > 0, what);
				snprintf(what, sizeof(what), "%s: the other file is not written",
					 formats[i]);
				T_STREQ(get(tmp), "theirs", what);
				snprintf(what, sizeof(what), "%s: nor committed", formats[i]);
				T_EQ(rvctr_output__commit(&o, err, sizeof(err)), -1, what);
				unlink(at("moved"));
				unlink(tmp);
			} else {
				snprintf(what, sizeof(what), "%s: the file committed is the one "
					 "made at begin, written", formats[i]);
				T_OK(!rvctr_output__commit(&o, err, sizeof(err)) &&
				     !stat(at("s.out"), &st) && st.st_ino == made.st_ino &&
				     st.st_size > 0, what);
				unlink(at("s.out"));
			}
			rvctr_output__abort(&o);
			free(tmp);
		}
	}
	T_EQ(hidden(0), 0, "no temporary file left");
}

/*
 * The same, named relative to the working directory (in /proc/self/fd,
 * "N"; in /, "proc/self/fd/N"), and through a pid's directory rather than
 * self's: still this process's descriptor, written in place through it.
 */
static void test_descriptor_relative(void)
{
	static const char *const dirs[] = { "/proc/self/fd", "/", "/" };
	unsigned int i;
	char err[256], what[160], name[64];
	struct stat before, st;
	int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct rvctr_output o;
		const char *got;
		int fd, ret = -1;

		put(at("f.out"), "earlier\n");
		fd = open(at("f.out"), O_WRONLY | O_APPEND);
		fstat(fd, &before);
		if (i == 0)
			snprintf(name, sizeof(name), "%d", fd);
		else if (i == 1)
			snprintf(name, sizeof(name), "proc/self/fd/%d", fd);
		else
			snprintf(name, sizeof(name), "/proc/%d/fd/%d", (int)getpid(), fd);
		if (chdir(dirs[i]) == 0 &&
		    !rvctr_output__begin(&o, name, RVCTR_OUTPUT_BACKUP, err, sizeof(err)))
			ret = write_out(&o, "perfscript", err, sizeof(err));
		if (fchdir(cwd))
			break;
		got = get(at("f.out"));
		snprintf(what, sizeof(what), "'%s' in %s: appended through the descriptor", name,
			 dirs[i]);
		T_OK(!ret && got && !strncmp(got, "earlier\n", 8) && strlen(got) > 8 &&
		     !stat(at("f.out"), &st) && st.st_ino == before.st_ino && hidden(0) == 0,
		     what);
		close(fd);
		unlink(at("f.out"));
	}
	close(cwd);
}

/*
 * A descriptor's link (/proc/self/fd/N; /dev/stdout and /dev/fd/N lead
 * there), as -o /dev/stdout under a shell's ">> F": F is written through
 * the descriptor, its earlier text, inode and mode kept, never renamed
 * over nor backed up.  perf.data (written from offset 0, its header last)
 * is refused at once into a descriptor open to append, or a pipe.
 */
static void test_descriptor_link(void)
{
	static const char *const formats[] = { "perfscript", "autofdo", "perf" };
	unsigned int i, via;
	char err[256], what[160], name[64];
	struct stat before, st;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		for (via = 0; via < 2; via++) {
			int text = strcmp(formats[i], "perf") != 0, fd, ret;
			struct rvctr_output o;
			const char *got;

			put(at("f.out"), "earlier\n");
			chmod(at("f.out"), 0644);
			fd = open(at("f.out"), O_WRONLY | O_APPEND);
			fstat(fd, &before);
			snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
			if (via) {	/* a link on the way: LINK -> /dev/fd/N */
				snprintf(name, sizeof(name), "/dev/fd/%d", fd);
				symlink(name, at("fd.link"));
				snprintf(name, sizeof(name), "%s", at("fd.link"));
			}
			err[0] = 0;
			snprintf(what, sizeof(what), "%s to %s: begin", formats[i],
				 via ? "a link to /dev/fd/N" : "/proc/self/fd/N");
			T_EQ(rvctr_output__begin(&o, name, RVCTR_OUTPUT_BACKUP, err, sizeof(err)),
			     0, what);
			snprintf(what, sizeof(what), "%s: written in place, no temporary file",
				 formats[i]);
			T_STREQ(rvctr_output__path(&o), name, what);
			ret = write_out(&o, formats[i], err, sizeof(err));
			if (text) {
				snprintf(what, sizeof(what), "%s: written", formats[i]);
				T_EQ(ret, 0, what);
				if (ret)
					printf("# %s\n", err);
			} else {
				snprintf(what, sizeof(what), "perf.data into a descriptor open to "
					 "append: refused, saying why");
				T_OK(ret && strstr(err, "open for appending") &&
				     strstr(err, name), what);
			}
			got = get(at("f.out"));
			snprintf(what, sizeof(what), "%s: the earlier text kept%s", formats[i],
				 text ? ", the output appended" : ", nothing written");
			T_OK(got && !strncmp(got, "earlier\n", 8) &&
			     (text ? strlen(got) > 8 : strlen(got) == 8), what);
			snprintf(what, sizeof(what), "%s: the same file (inode), its mode, no "
				 "NAME.old, no temporary file", formats[i]);
			T_OK(!stat(at("f.out"), &st) && st.st_ino == before.st_ino &&
			     (st.st_mode & 0777) == 0644 && !get(at("f.out.old")) &&
			     hidden(0) == 0, what);
			close(fd);
			unlink(at("f.out"));
			unlink(at("fd.link"));
		}
	}
	/* perf.data into a descriptor at a file's start: written in place */
	{
		int fd = open(at("p.data"), O_WRONLY | O_CREAT | O_TRUNC, 0644), p[2];
		struct rvctr_output o;
		struct rvctr_sink_info info = { .arch = "riscv64", .out = &o, .machine = machine };
		struct rvctr_sink *s;
		const char *got;

		fchmod(fd, 0644);
		fstat(fd, &before);
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
		rvctr_output__begin(&o, name, RVCTR_OUTPUT_BACKUP | RVCTR_OUTPUT_PRIVATE, err,
				    sizeof(err));
		info.path = rvctr_output__name(&o);
		s = rvctr_sink__open(rvctr_sink__find("perf"), &info, err, sizeof(err));
		if (s)
			feed(s);
		T_OK(s && !rvctr_sink__close(s, err, sizeof(err)) &&
		     !rvctr_output__commit(&o, err, sizeof(err)),
		     "perf.data into a descriptor of a file at its start: written");
		rvctr_output__abort(&o);
		got = get(at("p.data"));
		T_OK(got && !strncmp(got, "PERFILE2", 8) && !stat(at("p.data"), &st) &&
		     st.st_ino == before.st_ino && (st.st_mode & 0777) == 0644,
		     "... in place: the same file, its mode");
		/* the shell's next write to the descriptor must not land in the data */
		T_EQ(lseek(fd, 0, SEEK_CUR), stat(at("p.data"), &st) ? -1 : st.st_size,
		     "... the shared offset left at the file's end, not after the header");
		close(fd);
		unlink(at("p.data"));

		/* a descriptor open only for reading: refused when begun */
		fd = open(at("ro"), O_RDWR | O_CREAT | O_TRUNC, 0644);
		close(fd);
		fd = open(at("ro"), O_RDONLY);
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
		err[0] = 0;
		T_OK(rvctr_output__begin(&o, name, 0, err, sizeof(err)) &&
		     strstr(err, "not open for writing"),
		     "a descriptor open for reading only: refused, saying so");
		close(fd);
		unlink(at("ro"));

		/* a pipe: refused when opened, not after writing it all */
		if (pipe(p) == 0) {
			snprintf(name, sizeof(name), "/proc/self/fd/%d", p[1]);
			rvctr_output__begin(&o, name, 0, err, sizeof(err));
			info.path = rvctr_output__name(&o);
			s = rvctr_sink__open(rvctr_sink__find("perf"), &info, err, sizeof(err));
			T_OK(!s && strstr(err, name) && strstr(err, "not seekable") &&
			     strstr(err, "-o -"), "perf.data into a pipe: refused at open, "
			     "naming it and pipe mode");
			if (s)
				rvctr_sink__abort(s);
			rvctr_output__abort(&o);
			close(p[0]);
			close(p[1]);
		}
	}
}

static void test_no_directory(void)
{
	struct rvctr_output o;
	char err[256] = "";

	T_EQ(rvctr_output__begin(&o, at("none/x.data"), 0, err, sizeof(err)), -1,
	     "begin in a missing directory: -1");
	T_OK(strstr(err, "none/x.data: cannot create a file next to it") != NULL,
	     "... saying why");
	rvctr_output__abort(&o);
}

int main(void)
{
	machine = rvctr_machine__new(NULL, NULL);
	if (!machine || !mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_new_file();
	test_backup();
	test_failed_rename();
	test_in_place();
	test_no_directory();
	test_swapped();
	test_written_through_fd();
	test_descriptor_link();
	test_descriptor_relative();
	hidden(1);
	if (rmdir(dir))
		printf("# cannot remove %s\n", dir);
	rvctr_machine__delete(machine);
	return tests_done();
}
