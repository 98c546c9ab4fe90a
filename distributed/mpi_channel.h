// Messages between the processes of an MPI job (Open MPI): each one a byte string with a tag,
// sent without waiting and received by polling. Every MPI call of a process comes from one
// thread at a time (MPI_THREAD_SERIALIZED), and no call waits on a peer, so a rank that died
// never blocks the others (with `mpirun --enable-recovery` the job outlives it).
#pragma once

#include <list>
#include <optional>
#include <string>

namespace quax {

// MPI_Init_thread .. MPI_Finalize for the life of the object; errors are returned, not fatal.
// MPI_Finalize waits for every rank of the job, so it never returns once one has died: the
// end skips it when a peer is known to be gone, and otherwise gives it kFinalizeLimit before
// the process exits without it (with the exit code it would have had).
class MpiSession {
 public:
  // Throws std::runtime_error when MPI cannot start or cannot give MPI_THREAD_SERIALIZED.
  MpiSession();
  ~MpiSession();
  // A peer died or was left out: the end does not wait for the job's other ranks.
  void skip_finalize() { skip_finalize_ = true; }
  // The code the process exits with if MPI_Finalize does not return (0 unless set).
  void set_exit_code(int code) { exit_code_ = code; }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
  bool skip_finalize_ = false;
  int exit_code_ = 0;
};

enum class MessageTag : int {
  kConfig = 1,  // learner -> actor: the actor's configuration (YAML)
  kModel,       // learner -> actor: "<step>\n" and a model file's bytes
  kHeartbeat,   // learner -> actor: nothing (the learner is alive)
  kStop,        // learner -> actor: finish and say goodbye
  kShard,       // actor -> learner: "<shard file name>\n" and the shard's bytes
  kStats,       // actor -> learner: JSON of its counters (also its heartbeat)
  kBye,         // actor -> learner: JSON {"error": ""} - its last message
};

struct Message {
  int source = -1;
  MessageTag tag = MessageTag::kHeartbeat;
  std::string bytes;
};

class MpiChannel {
 public:
  MpiChannel() = default;
  MpiChannel(const MpiChannel&) = delete;
  MpiChannel& operator=(const MpiChannel&) = delete;
  ~MpiChannel();

  // Starts sending `bytes` to rank `dest`; the channel keeps them until the send completes.
  // Throws std::runtime_error naming the rank when MPI refuses the send.
  void send(int dest, MessageTag tag, std::string bytes);
  // A message that has arrived whole from any rank, or nullopt when none has. Messages of
  // one sender come in the order it sent them. A message whose sender died half-way through
  // is never returned (and never waited for).
  std::optional<Message> receive();
  // Sends not yet completed, to `dest` (all ranks when dest < 0), after completing those
  // that are done.
  int pending_sends(int dest = -1);
  // Gives up the sends to and the receives from `dest`, a rank taken for dead: they are no
  // longer waited for.
  void abandon(int dest);

 private:
  // A send, or a receive under way (matched, its bytes still arriving).
  struct Transfer {
    int peer;
    int tag;
    std::string bytes;
    void* request;  // MPI_Request, kept opaque so that this header needs no mpi.h
  };
  void give_up(std::list<Transfer>& list, std::list<Transfer>::iterator it);
  std::list<Transfer> outgoing_, incoming_;  // incoming_ in the order matched
  // Transfers given up (abandon, or pending when the channel ends): MPI may still touch
  // their bytes until it finalizes, so they are never freed (a list's nodes do not move).
  std::list<Transfer>* abandoned_ = new std::list<Transfer>;
};

}  // namespace quax
