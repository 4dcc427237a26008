/* outfile.c — the tool's output, safely: standard output checked at exit
 * (a full disk or a closed stdout is an error, not a silent truncation), and
 * files written with -o created without following a symbolic link, never
 * replacing a file unless asked, never inside an OTF2 archive directory,
 * through a temporary file renamed into place.  Exit codes: README.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static bool stdout_was_closed;

void cli_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
		/* keep 0-2 taken, or the next open() (a trace file, the -o file) would become stdout */
		int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (n >= 0 && n != fd) { dup2(n, fd); close(n); }
		if (fd == 1) stdout_was_closed = true;
	}
}

int cli_finish_stdout(int rc)
{
	if (stdout_was_closed) {
		fprintf(stderr, "tracecomb: standard output is closed: nothing could be written\n");
		return rc ? rc : TC_EXIT_OUTPUT;
	}
	errno = 0;
	bool bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !bad) { bad = true; e = errno; }
	if (bad) {
		fprintf(stderr, "tracecomb: cannot write standard output: %s\n", e ? strerror(e) : "write error");
		return rc ? rc : TC_EXIT_OUTPUT;
	}
	return rc;
}

/* Is dir (a real path) an OTF2 archive directory: one holding an anchor
 * (*.otf2), or the event directory <name>/ beside <name>.otf2? */
static bool is_archive_dir(const char *dir)
{
	char *anchor = xasprintf("%s.otf2", dir);
	struct stat st;
	bool yes = stat(anchor, &st) == 0 && S_ISREG(st.st_mode);
	free(anchor);
	DIR *d = yes ? NULL : opendir(dir);
	if (d) {
		struct dirent *e;
		while (!yes && (e = readdir(d))) {
			size_t n = strlen(e->d_name);
			yes = n > 5 && !strcmp(e->d_name + n - 5, ".otf2");
		}
		closedir(d);
	}
	return yes;
}

/* The directory FILE would be created in, resolved (caller frees), or NULL with errno. */
static char *real_parent(const char *file)
{
	char *f = xstrdup(file), r[PATH_MAX];
	char *p = realpath(dirname(f), r) ? xstrdup(r) : NULL;
	free(f);
	return p;
}

static mode_t current_umask(void)
{
	mode_t m = umask(0);
	umask(m);
	return m;
}

int cli_out_open(struct cli_out *o, const char *path, bool force, const char *anchor)
{
	*o = (struct cli_out){ .path = path, .fd = -1 };
	char *dir = real_parent(path);
	if (!dir) {
		fprintf(stderr, "tracecomb: %s: cannot write there: %s\n", path, strerror(errno));
		return TC_EXIT_OUTPUT;
	}
	char *adir = anchor ? real_parent(anchor) : NULL;
	size_t n = adir ? strlen(adir) : 0;
	bool in_trace = adir && !strncmp(dir, adir, n) && (dir[n] == '\0' || dir[n] == '/');
	free(adir);
	if (in_trace || is_archive_dir(dir)) {
		fprintf(stderr, "tracecomb: %s: refusing to write into the trace directory%s\n", path,
			in_trace ? "" : " (an OTF2 archive)");
		free(dir);
		return TC_EXIT_USAGE;
	}
	struct stat st;
	if (lstat(path, &st) == 0) {
		const char *why = S_ISLNK(st.st_mode) ? "is a symbolic link (not followed)"
				  : S_ISDIR(st.st_mode) ? "is a directory"
				  : !S_ISREG(st.st_mode) ? "is not a regular file"
				  : !force ? "exists (use --force to replace it)" : NULL;
		if (why) {
			fprintf(stderr, "tracecomb: %s: %s\n", path, why);
			free(dir);
			return TC_EXIT_USAGE;
		}
	}
	/* a new file beside the target: O_EXCL, never through a link */
	o->tmp = xasprintf("%s/.tracecomb-out.XXXXXX", dir);
	free(dir);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0 || !(o->f = fdopen(o->fd, "w"))) {
		fprintf(stderr, "tracecomb: %s: cannot create: %s\n", path, strerror(errno));
		if (o->fd >= 0) { close(o->fd); unlink(o->tmp); }
		free(o->tmp);
		o->tmp = NULL;
		return TC_EXIT_OUTPUT;
	}
	fchmod(o->fd, 0644 & ~current_umask());
	o->force = force;
	return 0;
}

int cli_out_close(struct cli_out *o)
{
	if (!o->f) return TC_EXIT_OUTPUT;
	errno = 0;
	bool bad = fflush(o->f) != 0 || ferror(o->f) || fsync(o->fd) != 0;
	int e = errno;
	if (fclose(o->f) != 0 && !bad) { bad = true; e = errno; }
	o->f = NULL;
	int rc = 0;
	if (bad) {
		fprintf(stderr, "tracecomb: %s: write failed: %s\n", o->path, e ? strerror(e) : "write error");
		rc = TC_EXIT_OUTPUT;
	} else if (o->force ? rename(o->tmp, o->path) != 0 : link(o->tmp, o->path) != 0) {
		/* without --force, link() fails if the name appeared meanwhile: nothing is replaced */
		fprintf(stderr, "tracecomb: %s: cannot %s: %s\n", o->path, o->force ? "rename into place" : "create",
			strerror(errno));
		rc = TC_EXIT_OUTPUT;
	}
	if (rc || !o->force) unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return rc;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f) fclose(o->f);
	o->f = NULL;
	if (o->tmp) unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}
