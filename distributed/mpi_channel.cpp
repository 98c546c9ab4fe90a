#include "distributed/mpi_channel.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

namespace quax {
namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, length);
}

MPI_Request* as_request(void* p) { return static_cast<MPI_Request*>(p); }

// Enough for MPI_Finalize of a job whose ranks are all alive and done.
constexpr std::chrono::seconds kFinalizeLimit{10};

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

MpiSession::~MpiSession() {
  std::fflush(nullptr);
  if (skip_finalize_) return;
  const int code = exit_code_;
  std::thread([code] {
    std::this_thread::sleep_for(kFinalizeLimit);
    std::fflush(nullptr);
    std::_Exit(code);
  }).detach();
  MPI_Finalize();
}

MpiChannel::~MpiChannel() {
  while (!outgoing_.empty()) give_up(outgoing_, outgoing_.begin());
  while (!incoming_.empty()) give_up(incoming_, incoming_.begin());
}

void MpiChannel::give_up(std::list<Transfer>& list, std::list<Transfer>::iterator it) {
  MPI_Request* request = as_request(it->request);
  if (&list == &incoming_) MPI_Cancel(request);
  MPI_Request_free(request);
  abandoned_->splice(abandoned_->end(), list, it);
}

void MpiChannel::send(int dest, MessageTag tag, std::string bytes) {
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    throw std::runtime_error("a message to rank " + std::to_string(dest) + " is larger than 2 GB");
  outgoing_.push_back({dest, static_cast<int>(tag), std::move(bytes), new MPI_Request});
  Transfer& o = outgoing_.back();
  const int rc = MPI_Isend(o.bytes.data(), static_cast<int>(o.bytes.size()), MPI_BYTE, dest, o.tag, MPI_COMM_WORLD,
                           as_request(o.request));
  if (rc != MPI_SUCCESS) {
    delete as_request(o.request);
    outgoing_.pop_back();
    throw std::runtime_error("cannot send to rank " + std::to_string(dest) + ": " + mpi_error_text(rc));
  }
}

std::optional<Message> MpiChannel::receive() {
  // Match what has arrived and start receiving it without waiting: a blocking receive would
  // hang for good on a message whose sender died before all its bytes left.
  for (;;) {
    int flag = 0;
    MPI_Message matched;
    MPI_Status status;
    if (MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &matched, &status) != MPI_SUCCESS || !flag)
      break;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    incoming_.push_back({status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<size_t>(count), '\0'),
                         new MPI_Request});
    Transfer& in = incoming_.back();
    if (MPI_Imrecv(in.bytes.data(), count, MPI_BYTE, &matched, as_request(in.request)) != MPI_SUCCESS) {
      delete as_request(in.request);
      incoming_.pop_back();
    }
  }
  // The oldest complete message whose sender has no older one still arriving.
  std::vector<int> waiting_senders;
  for (auto it = incoming_.begin(); it != incoming_.end(); ++it) {
    if (std::find(waiting_senders.begin(), waiting_senders.end(), it->peer) != waiting_senders.end()) continue;
    int done = 0;
    if (MPI_Test(as_request(it->request), &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || !done) {
      waiting_senders.push_back(it->peer);
      continue;
    }
    Message m{it->peer, static_cast<MessageTag>(it->tag), std::move(it->bytes)};
    delete as_request(it->request);
    incoming_.erase(it);
    return m;
  }
  return std::nullopt;
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
    if (dest < 0 || it->peer == dest) ++pending;
    ++it;
  }
  return pending;
}

void MpiChannel::abandon(int peer) {
  for (auto* list : {&outgoing_, &incoming_})
    for (auto it = list->begin(); it != list->end();) {
      const auto next = std::next(it);
      if (it->peer == peer) give_up(*list, it);
      it = next;
    }
}

}  // namespace quax
