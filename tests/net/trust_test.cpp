// The daemon's trust anchors without sockets: its key file, fingerprints, the pinned hosts, the
// keys seats are bound to, and friends codes that name their host.
#include "daemon/room/secrets.h"
#include "daemon/trust/host_key.h"
#include "daemon/trust/known_hosts.h"
#include "daemon/trust/seat_keys.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace halma::daemon;
namespace fs = std::filesystem;

namespace {

// The public key of ZeroMQ's RFC 32 (Z85) example.
constexpr const char* kExampleKey = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";

struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "halma-trust-XXXXXX").string();
        path = mkdtemp(pattern.data());
    }
    ~TempDir() { fs::remove_all(path); }
};

std::string read(const fs::path& file) {
    std::ifstream in(file);
    return { std::istreambuf_iterator<char>(in), {} };
}

} // namespace

TEST(HostKey, FingerprintIsSha256OfTheRawKeyInCrockfordBase32) {
    // Computed apart: Python's hashlib over pyzmq's z85.decode of the key.
    EXPECT_EQ(fingerprint_digits(kExampleKey), "xestykeskkqz6vmzj2txpfj51r");
    EXPECT_EQ(key_fingerprint(kExampleKey), "SHA256:xest-ykes-kkqz-6vmz-j2tx-pfj5-1r");
    EXPECT_EQ(key_fingerprint("not a key"), "");
    EXPECT_FALSE(is_curve_key(std::string(40, ' ')));
    EXPECT_TRUE(is_curve_key(new_curve_key_pair().public_key));
}

TEST(HostKey, MadeOncePrivateAndKept) {
    TempDir dir;
    auto made = load_or_create_host_key(dir.path);
    ASSERT_TRUE(made) << made.error().message;
    struct stat st { };
    ASSERT_EQ(stat((dir.path / "curve").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    auto again = load_or_create_host_key(dir.path);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->public_key, made->public_key);
    EXPECT_EQ(again->secret_key, made->secret_key);
}

TEST(HostKey, ADamagedFileIsAnErrorAndLeftAlone) {
    TempDir dir;
    std::ofstream(dir.path / "curve") << "public short\n";
    auto loaded = load_or_create_host_key(dir.path);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().message.find("damaged"), std::string::npos);
    EXPECT_EQ(read(dir.path / "curve"), "public short\n");
}

TEST(KnownHosts, PinsOnceForgetsAndNamesBothFingerprints) {
    TempDir dir;
    KnownHosts known(dir.path / "known_hosts");
    std::string other = new_curve_key_pair().public_key;
    EXPECT_FALSE(known.pinned("10.0.0.2:7460"));
    ASSERT_TRUE(known.pin("10.0.0.2:7460", kExampleKey));
    ASSERT_TRUE(known.pin("10.0.0.2:7460", other)); // a pin is never replaced
    EXPECT_EQ(known.pinned("10.0.0.2:7460"), kExampleKey);
    std::string message = changed_key_message("10.0.0.2:7460", kExampleKey, other, known.file());
    EXPECT_NE(message.find(key_fingerprint(kExampleKey)), std::string::npos);
    EXPECT_NE(message.find(key_fingerprint(other)), std::string::npos);
    EXPECT_NE(message.find("halma forget-host 10.0.0.2:7460"), std::string::npos);
    EXPECT_EQ(known.forget("10.0.0.9:7460"), false);
    EXPECT_EQ(known.forget("10.0.0.2:7460"), true);
    EXPECT_FALSE(known.pinned("10.0.0.2:7460"));
}

TEST(KnownHosts, DamagedLinesAreSkipped) {
    TempDir dir;
    std::ofstream(dir.path / "known_hosts")
        << "garbage\n10.0.0.3:7460 not-a-key\n10.0.0.4:7460 " << kExampleKey << "\n";
    KnownHosts known(dir.path / "known_hosts");
    EXPECT_FALSE(known.pinned("10.0.0.3:7460"));
    EXPECT_EQ(known.pinned("10.0.0.4:7460"), kExampleKey);
}

TEST(SeatKeys, SavedAndLoaded) {
    TempDir dir;
    SeatKeys keys { { 2, kExampleKey }, { 5, "" } };
    ASSERT_TRUE(save_seat_keys(dir.path, keys));
    EXPECT_EQ(load_seat_keys(dir.path), keys);
    std::ofstream(dir.path / "keys") << "7 not-a-key\nx y\n";
    EXPECT_TRUE(load_seat_keys(dir.path).empty());
}

TEST(FriendsCode, EndsInTheHostKeysFingerprint) {
    std::string digits = fingerprint_digits(kExampleKey);
    std::string code = random_room_code(digits);
    std::string normal = normalize_code(code);
    ASSERT_EQ(normal.size(), kFriendsCodeWithKey) << code;
    EXPECT_EQ(normal.substr(kFriendsCodeDigits), digits.substr(0, kFriendsKeyDigits));
    EXPECT_EQ(code.substr(23), "-xest-ykes-kkqz-6vmz");
}
