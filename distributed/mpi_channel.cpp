#include "distributed/mpi_channel.h"

#include <mpi.h>

#include <climits>
#include <stdexcept>

namespace quax {
namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, length);
}

MPI_Request* as_request(void* p) { return static_cast<MPI_Request*>(p); }

}  // namespace

MpiSession::MpiSession() {
  int provided = 0;
  if (const int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided); rc != MPI_SUCCESS)
    throw std::runtime_error("MPI did not start: " + mpi_error_text(rc));
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("this MPI library cannot be called from several threads (MPI_THREAD_SERIALIZED)");
  }
  // A dead peer must show as an error code, not end this process.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

MpiChannel::~MpiChannel() {
  for (auto& o : outgoing_) MPI_Request_free(as_request(o.request));
  abandoned_->splice(abandoned_->end(), outgoing_);
}

void MpiChannel::send(int dest, MessageTag tag, std::string bytes) {
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    throw std::runtime_error("a message to rank " + std::to_string(dest) + " is larger than 2 GB");
  outgoing_.push_back({dest, std::move(bytes), new MPI_Request});
  Outgoing& o = outgoing_.back();
  const int rc = MPI_Isend(o.bytes.data(), static_cast<int>(o.bytes.size()), MPI_BYTE, dest, static_cast<int>(tag),
                           MPI_COMM_WORLD, as_request(o.request));
  if (rc != MPI_SUCCESS) {
    delete as_request(o.request);
    outgoing_.pop_back();
    throw std::runtime_error("cannot send to rank " + std::to_string(dest) + ": " + mpi_error_text(rc));
  }
}

std::optional<Message> MpiChannel::receive() {
  int flag = 0;
  MPI_Status status;
  if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS || !flag)
    return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Message m;
  m.source = status.MPI_SOURCE;
  m.tag = static_cast<MessageTag>(status.MPI_TAG);
  m.bytes.resize(static_cast<size_t>(count));
  const int rc = MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS)
    throw std::runtime_error("cannot receive from rank " + std::to_string(m.source) + ": " + mpi_error_text(rc));
  return m;
}

int MpiChannel::pending_sends(int dest) {
  int pending = 0;
  for (auto it = outgoing_.begin(); it != outgoing_.end();) {
    int done = 0;
    // An error (the peer died) counts as still pending: abandon() is the caller's decision.
    if (MPI_Test(as_request(it->request), &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done) {
      delete as_request(it->request);
      it = outgoing_.erase(it);
      continue;
    }
    if (dest < 0 || it->dest == dest) ++pending;
    ++it;
  }
  return pending;
}

void MpiChannel::abandon(int dest) {
  for (auto it = outgoing_.begin(); it != outgoing_.end();) {
    if (it->dest != dest) {
      ++it;
      continue;
    }
    MPI_Request_free(as_request(it->request));
    const auto next = std::next(it);
    abandoned_->splice(abandoned_->end(), outgoing_, it);
    it = next;
  }
}

}  // namespace quax
