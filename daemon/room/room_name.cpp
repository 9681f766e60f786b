#include "daemon/room/room_name.h"

#include "daemon/room/clean_text.h"
#include "daemon/room/room_types.h"

namespace halma::daemon {

engine::Result<std::string> room_name(std::string_view typed) {
    std::string name = sanitize_text(typed);
    auto first = name.find_first_not_of(' ');
    if (first == std::string::npos)
        return engine::fail(typed.empty() ? "a room needs a name" : "a room name cannot be blank");
    name = name.substr(first, name.find_last_not_of(' ') - first + 1);
    if (name.size() > kMaxRoomName)
        return engine::fail("a room name is at most " + std::to_string(kMaxRoomName) + " bytes; '"
            + name + "' has " + std::to_string(name.size()));
    return name;
}

} // namespace halma::daemon
