// LD_PRELOAD into halmad: notes every flush to the disk (fsync, fdatasync, syncfs) it makes,
// "loop" or "helper" (the main thread, the event loop, or another), the call and the file, in
// the file named by HALMA_LOOP_DISK_SPY. The loop must never wait for the disk (issue 11), and
// what it writes must still reach the disk, on the helper: tests read the notes made after the
// daemon started. Each call then goes on to the real function.
// It can also play a full disk: while the file named by HALMA_DISK_FULL_FLAG exists, a write()
// or pwrite() to a file under HALMA_DISK_FULL_DIR fails with ENOSPC, whatever room the file system
// has left (a tmpfs filled up still takes small appends into a page a file already has); and a file
// system remounted read-only: while HALMA_DISK_READ_ONLY_FLAG exists, remove() under that directory
// fails with EROFS too.
// It notes every directory made (mkdir) too, as "mkdir": a new room's directory made on the loop
// means its files are made there; and every file made (an open with O_CREAT) as "create", and
// every rename as "rename" (its source): a folded log written on the loop shows as both. And it can
// play a disk that stalls: while the file named by HALMA_DISK_STALL_FLAG exists, each flush made
// off the loop waits (at most a minute), as a Raspberry Pi's SD card can for seconds under a busy
// journal; with HALMA_DISK_STALL_ONLY, only the flushes of files whose path holds that text (the
// helper waits behind them all the same).
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace {

template <class F> F real(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

std::string path_of(int fd) {
    char path[4096];
    std::string link = "/proc/self/fd/" + std::to_string(fd);
    ssize_t n = readlink(link.c_str(), path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string("?");
}

// Whether `path` is under HALMA_DISK_FULL_DIR while the file named by the variable `flag` exists.
// The flag file is looked at first: a path is worked out only while it exists. errno is kept
// as it was (a write that goes on must not see access()'s).
bool flag_set(const char* flag_variable) {
    const char* flag = std::getenv(flag_variable);
    if (!flag || !std::getenv("HALMA_DISK_FULL_DIR")) return false;
    int saved = errno;
    bool set = access(flag, F_OK) == 0;
    errno = saved;
    return set;
}

bool under_the_dir(const std::string& path) {
    std::string dir = std::getenv("HALMA_DISK_FULL_DIR");
    return path == dir || path.rfind(dir + "/", 0) == 0;
}

bool disk_full_for(int fd) {
    return flag_set("HALMA_DISK_FULL_FLAG") && under_the_dir(path_of(fd));
}

bool on_the_loop() {
    return gettid() == getpid();
}

void note_path(const char* call, const std::string& path) {
    const char* out = std::getenv("HALMA_LOOP_DISK_SPY");
    if (!out) return;
    int saved = errno;
    // O_APPEND and one write: whole lines even if the daemon forks. The real open: this one
    // would note the note file.
    static auto real_open = real<int (*)(const char*, int, ...)>("open");
    int log = real_open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (log >= 0) {
        std::string line
            = std::string(on_the_loop() ? "loop" : "helper") + " " + call + " " + path + "\n";
        if (real<ssize_t (*)(int, const void*, size_t)>("write")(log, line.data(), line.size())
            < 0) { }
        close(log);
    }
    errno = saved;
}

void note(const char* call, int fd) {
    if (std::getenv("HALMA_LOOP_DISK_SPY")) note_path(call, path_of(fd));
    const char* stall = std::getenv("HALMA_DISK_STALL_FLAG");
    if (!stall || on_the_loop()) return;
    int saved = errno;
    const char* only = std::getenv("HALMA_DISK_STALL_ONLY");
    if (only && path_of(fd).find(only) == std::string::npos) {
        errno = saved;
        return;
    }
    for (int i = 0; i < 6000 && access(stall, F_OK) == 0; ++i) usleep(10000);
    errno = saved;
}

} // namespace

extern "C" {

ssize_t write(int fd, const void* bytes, size_t size) {
    if (disk_full_for(fd)) {
        errno = ENOSPC;
        return -1;
    }
    // Looked up once: every write halmad makes comes through here (ZeroMQ's signals too).
    static auto real_write = real<ssize_t (*)(int, const void*, size_t)>("write");
    return real_write(fd, bytes, size);
}

// A write in place (a room's members and keys: paired_file.h) fails the same way.
ssize_t pwrite(int fd, const void* bytes, size_t size, off_t offset) {
    if (disk_full_for(fd)) {
        errno = ENOSPC;
        return -1;
    }
    static auto real_pwrite = real<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
    return real_pwrite(fd, bytes, size, offset);
}

int remove(const char* path) {
    if (path && flag_set("HALMA_DISK_READ_ONLY_FLAG") && under_the_dir(path)) {
        errno = EROFS;
        return -1;
    }
    return real<int (*)(const char*)>("remove")(path);
}

int open(const char* path, int flags, ...) {
    mode_t mode = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list args;
        va_start(args, flags);
        mode = static_cast<mode_t>(va_arg(args, int));
        va_end(args);
        if (path) note_path("create", path);
    }
    static auto real_open = real<int (*)(const char*, int, ...)>("open");
    return real_open(path, flags, mode);
}

int rename(const char* from, const char* to) {
    if (from) note_path("rename", from);
    return real<int (*)(const char*, const char*)>("rename")(from, to);
}

int mkdir(const char* path, mode_t mode) {
    if (path) note_path("mkdir", path);
    return real<int (*)(const char*, mode_t)>("mkdir")(path, mode);
}

int fsync(int fd) {
    note("fsync", fd);
    return real<int (*)(int)>("fsync")(fd);
}

int fdatasync(int fd) {
    note("fdatasync", fd);
    return real<int (*)(int)>("fdatasync")(fd);
}

int syncfs(int fd) {
    note("syncfs", fd);
    return real<int (*)(int)>("syncfs")(fd);
}

} // extern "C"
