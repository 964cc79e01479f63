// The worker protocol's framing (profiler/worker/Protocol.h) and message encoding
// (Messages.h): frames split at every byte, several frames per read, bad magic, oversize
// lengths, and exact round trips of a run request and result with tensors in the blob.
#include <unistd.h>

#include <gtest/gtest.h>

#include "profiler/worker/Messages.h"
#include "profiler/worker/Protocol.h"

using namespace ts;
using namespace ts::rt::worker;

TEST(WorkerProtocol, FrameHeaderIsMagicAndLittleEndianLength) {
    const std::string f = frame("abc");
    ASSERT_EQ(f.size(), 11u);
    EXPECT_EQ(f.substr(0, 4), "TSW1");
    EXPECT_EQ(static_cast<uint8_t>(f[4]), 3);
    EXPECT_EQ(f[5], 0);
    EXPECT_EQ(f[6], 0);
    EXPECT_EQ(f[7], 0);
    EXPECT_EQ(f.substr(8), "abc");
}

TEST(WorkerProtocol, FramesSplitAtEveryByteReassemble) {
    const std::string a(300, 'x'), b = "second";
    const std::string stream = frame(a) + frame("") + frame(b);
    FrameReader r;
    std::vector<std::string> got;
    std::string p;
    for (char c : stream) {
        r.feed(&c, 1);
        while (r.next(p) == FrameReader::Status::Frame) got.push_back(p);
    }
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], a);
    EXPECT_EQ(got[1], "");
    EXPECT_EQ(got[2], b);
    EXPECT_EQ(r.buffered(), 0u);
}

TEST(WorkerProtocol, SeveralFramesInOneRead) {
    const std::string stream = frame("one") + frame("two") + frame("thr");
    FrameReader r;
    r.feed(stream.data(), stream.size() - 1);  // the last frame misses one byte
    std::string p;
    ASSERT_EQ(r.next(p), FrameReader::Status::Frame);
    EXPECT_EQ(p, "one");
    ASSERT_EQ(r.next(p), FrameReader::Status::Frame);
    EXPECT_EQ(p, "two");
    EXPECT_EQ(r.next(p), FrameReader::Status::NeedMore);
    r.feed(stream.data() + stream.size() - 1, 1);
    ASSERT_EQ(r.next(p), FrameReader::Status::Frame);
    EXPECT_EQ(p, "thr");
}

TEST(WorkerProtocol, BadMagicFailsAtOnceAndStaysFailed) {
    FrameReader r;
    r.feed("TSX", 3);  // the third byte is already wrong
    std::string p;
    EXPECT_EQ(r.next(p), FrameReader::Status::Error);
    EXPECT_NE(r.error().find("bad frame magic"), std::string::npos);
    const std::string good = frame("ok");
    r.feed(good.data(), good.size());
    EXPECT_EQ(r.next(p), FrameReader::Status::Error);  // no resynchronisation
}

TEST(WorkerProtocol, OversizeFrameIsRejectedBeforeItsBytesArrive) {
    FrameReader r(1024);
    std::string header = "TSW1";
    header += std::string("\x01\x04\x00\x00", 4);  // 1025 bytes
    r.feed(header.data(), header.size());
    std::string p;
    EXPECT_EQ(r.next(p), FrameReader::Status::Error);
    EXPECT_NE(r.error().find("1025 bytes exceeds the limit of 1024"), std::string::npos);
}

// A message larger than one frame (MLA decode's 1.1 GiB KV cache against the 1 GiB frame
// limit) travels as "TSW+" pieces and a final "TSW1" frame; made cheap with a 1 KiB limit.
TEST(WorkerProtocol, MessageOverTheFrameLimitTravelsInPieces) {
    std::string big(5000, '\0');
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 + 3);
    const std::string stream = frames(big, 1024) + frames("tail", 1024);
    // 5000 bytes = 4 pieces of 1024 + a final 904; then a one-frame message.
    EXPECT_EQ(stream.size(), 5000 + 5 * kFrameHeaderBytes + 4 + kFrameHeaderBytes);
    EXPECT_EQ(stream.substr(0, 4), "TSW+");
    EXPECT_EQ(stream.substr(4 * (1024 + kFrameHeaderBytes), 4), "TSW1");
    FrameReader r(1024);
    std::vector<std::string> got;
    std::string p;
    for (size_t i = 0; i < stream.size(); i += 97) {  // pieces split across reads
        r.feed(stream.data() + i, std::min<size_t>(97, stream.size() - i));
        while (r.next(p) == FrameReader::Status::Frame) got.push_back(p);
    }
    ASSERT_EQ(got.size(), 2u) << r.error();
    EXPECT_EQ(got[0], big);
    EXPECT_EQ(got[1], "tail");
    EXPECT_EQ(r.buffered(), 0u);
    // The same payload as one frame is over that reader's limit: the check still stands.
    FrameReader strict(1024);
    const std::string one = frame(big);
    strict.feed(one.data(), one.size());
    EXPECT_EQ(strict.next(p), FrameReader::Status::Error);
    EXPECT_NE(strict.error().find("5000 bytes exceeds the limit of 1024"), std::string::npos);
}

TEST(WorkerProtocol, BadMagicAfterAPieceFails) {
    FrameReader r(1024);
    const std::string stream = frames(std::string(2000, 'a'), 1024).substr(0, 1024 + 8) + "XXXX";
    r.feed(stream.data(), stream.size());
    std::string p;
    EXPECT_EQ(r.next(p), FrameReader::Status::Error);
    EXPECT_NE(r.error().find("bad frame magic"), std::string::npos);
}

TEST(WorkerProtocol, WriteMessageSplitsHeaderAndBlobAtTheLimit) {
    Message m;
    m.header = {{"op", "run"}, {"kernel", std::string(300, 'k')}};  // the header alone > 256
    m.blob.resize(3000);
    for (size_t i = 0; i < m.blob.size(); ++i) m.blob[i] = static_cast<char>(i % 251);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ASSERT_TRUE(writeMessage(fds[1], m, 256));  // 3000 + ~330 bytes fit in the pipe's buffer
    ::close(fds[1]);
    FrameReader r(256);
    std::string p, why;
    ASSERT_EQ(readFrame(fds[0], r, p, 1000, why), ReadStatus::Frame) << why;
    EXPECT_EQ(p, encodeMessage(m));
    auto back = decodeMessage(p, why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->header, m.header);
    EXPECT_EQ(back->blob, m.blob);
    EXPECT_EQ(readFrame(fds[0], r, p, 1000, why), ReadStatus::Closed);
    ::close(fds[0]);
}

TEST(WorkerProtocol, ReadFrameReportsTimeoutCloseAndTruncation) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    FrameReader r;
    std::string p, why;
    EXPECT_EQ(readFrame(fds[0], r, p, 20, why), ReadStatus::Timeout);
    const std::string f = frame("hello");
    ASSERT_TRUE(writeAll(fds[1], f.substr(0, 6)));  // part of the header only
    EXPECT_EQ(readFrame(fds[0], r, p, 20, why), ReadStatus::Timeout);
    ASSERT_TRUE(writeAll(fds[1], f.substr(6)));
    ASSERT_EQ(readFrame(fds[0], r, p, 1000, why), ReadStatus::Frame);
    EXPECT_EQ(p, "hello");
    ASSERT_TRUE(writeAll(fds[1], f.substr(0, 9)));
    ::close(fds[1]);
    EXPECT_EQ(readFrame(fds[0], r, p, 1000, why), ReadStatus::Closed);
    EXPECT_NE(why.find("ended inside a frame (9 bytes"), std::string::npos) << why;
    ::close(fds[0]);
}

TEST(WorkerProtocol, MessageRoundTripAndMalformedPayloads) {
    Message m;
    m.header = {{"op", "hello"}, {"n", 3}};
    m.blob = std::string("\0\1\2", 3);
    std::string why;
    auto back = decodeMessage(encodeMessage(m), why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->header, m.header);
    EXPECT_EQ(back->blob, m.blob);
    EXPECT_FALSE(decodeMessage("ab", why));
    EXPECT_NE(why.find("no JSON length"), std::string::npos);
    EXPECT_FALSE(decodeMessage(std::string("\x10\0\0\0{}", 6), why));
    EXPECT_NE(why.find("exceeds the payload"), std::string::npos);
    EXPECT_FALSE(decodeMessage(std::string("\x02\0\0\0{x", 6), why));
    EXPECT_NE(why.find("does not parse"), std::string::npos);
}

TEST(WorkerProtocol, RunRequestRoundTripKeepsTensorsExactly) {
    rt::RunRequest req;
    req.source = "extern \"C\" __global__ void k() {}";
    req.kernel = "k";
    req.arch = "sm_90a";
    req.signature = {{"A", ir::DType::Float16, {2, 3}, false},
                     {"n", ir::DType::Int32, {4}, false},
                     {"C", ir::DType::Float32, {2, 3}, true}};
    req.config.grid[0] = 7;
    req.config.block[0] = 128;
    req.config.dynamicSmemBytes = 65536;
    req.tensors = {makeHostTensor(ir::DType::Float16, {2, 3}, {0.5, -1, 2, 65504, 0.25, -0.125}),
                   makeHostTensor(ir::DType::Int32, {4}, {1, -2, 2147483647, 0}),
                   HostTensor{ir::DType::Float32, {2, 3}, {}}};
    req.scalars = {{ir::DType::Int32, 1000}, {ir::DType::Float32, 0.5}};
    req.tensorMaps = {{0, 64, 128, 128}};
    req.timingReps = 9;
    req.rotateSets = 2;
    req.pointerFills = {{1, {2, 0}}};  // T.ptr: table #1 gets the addresses of tensors #2 and #0
    req.kernelTensors = 2;
    const Message m = encodeRunRequest(req);
    EXPECT_EQ(m.blob.size(), 2u * 6 + 4u * 4);  // fp16 and int32 bytes; the output has none
    std::string why;
    auto back = decodeRunRequest(*decodeMessage(encodeMessage(m), why), why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->source, req.source);
    EXPECT_EQ(back->kernel, "k");
    EXPECT_EQ(back->arch, "sm_90a");
    ASSERT_EQ(back->signature.size(), 3u);
    EXPECT_EQ(back->signature[2].isOutput, true);
    EXPECT_EQ(back->config.grid[0], 7u);
    EXPECT_EQ(back->config.block[0], 128u);
    EXPECT_EQ(back->config.dynamicSmemBytes, 65536u);
    ASSERT_EQ(back->pointerFills.size(), 1u);
    EXPECT_EQ(back->pointerFills[0].table, 1);
    EXPECT_EQ(back->pointerFills[0].pointees, (std::vector<int>{2, 0}));
    EXPECT_EQ(back->kernelTensors, 2);
    ASSERT_EQ(back->tensors.size(), 3u);
    EXPECT_EQ(back->tensors[0].data, req.tensors[0].data);
    EXPECT_EQ(back->tensors[1].data, req.tensors[1].data);
    EXPECT_FALSE(back->tensors[2].hasData());
    ASSERT_EQ(back->scalars.size(), 2u);
    EXPECT_EQ(back->scalars[0].value, 1000);
    EXPECT_EQ(back->scalars[1].dtype, ir::DType::Float32);
    ASSERT_EQ(back->tensorMaps.size(), 1u);  // sm_90a TMA kernels need them in the worker
    EXPECT_EQ(back->tensorMaps[0].tensor, 0);
    EXPECT_EQ(back->tensorMaps[0].boxInner, 64);
    EXPECT_EQ(back->tensorMaps[0].boxOuter, 128);
    EXPECT_EQ(back->tensorMaps[0].swizzleBytes, 128);
    EXPECT_EQ(back->timingReps, 9);
    EXPECT_EQ(back->rotateSets, 2);

    Message bad = m;
    bad.blob.resize(5);  // the int32 tensor now points outside the blob
    EXPECT_FALSE(decodeRunRequest(bad, why));
    EXPECT_NE(why.find("outside the blob"), std::string::npos) << why;
}

TEST(WorkerProtocol, RunResultRoundTrip) {
    rt::RunResult r;
    r.ok = true;
    r.compile.ok = true;
    r.compile.arch = "sm_80";
    r.compile.compileMs = 412.5;
    r.attributes.numRegs = 128;
    r.attributes.localBytes = 16;
    r.outputs.push_back(
        {"C", 2, makeHostTensor(ir::DType::BFloat16, {2}, {1.5, std::nan("")})});
    rt::TimingResult t;
    t.medianMs = 0.25;
    t.minMs = 0.2;
    t.maxMs = 0.3;
    t.reps = 3;
    t.samplesMs = {0.2, 0.25, 0.3};
    r.timing = t;
    std::string why;
    auto back = decodeRunResult(encodeRunResult(r), why);
    ASSERT_TRUE(back) << why;
    EXPECT_TRUE(back->ok);
    EXPECT_EQ(back->compile.arch, "sm_80");
    EXPECT_EQ(back->attributes.numRegs, 128);
    EXPECT_EQ(back->attributes.localBytes, 16);
    ASSERT_EQ(back->outputs.size(), 1u);
    EXPECT_EQ(back->outputs[0].paramIndex, 2u);
    EXPECT_EQ(back->outputs[0].tensor.data[0], 1.5);
    EXPECT_TRUE(std::isnan(back->outputs[0].tensor.data[1]));  // poison stays NaN
    ASSERT_TRUE(back->timing);
    EXPECT_EQ(back->timing->samplesMs, t.samplesMs);

    rt::RunResult f;
    f.failedStage = rt::RunStage::Launch;
    f.error = "cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS";
    Message fm = encodeRunResult(f, true);
    EXPECT_TRUE(fm.header["fatal"].get<bool>());
    auto fb = decodeRunResult(fm, why);
    ASSERT_TRUE(fb);
    EXPECT_EQ(fb->failedStage, rt::RunStage::Launch);
    EXPECT_EQ(fb->error, f.error);
}
