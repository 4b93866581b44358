#ifndef LIGHTBOX_CFFMPEG_SHIM_H
#define LIGHTBOX_CFFMPEG_SHIM_H
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

// One frame of a video as a thumbnail, with FFmpeg's libraries, in a decoder process.
// The file is read through our own descriptor (no URL, so no protocol, is ever opened) with
// the demuxer our sniffing chose (no probing into playlists or concatenations), one thread.

/// What one video gave: an upright RGB frame fitted to the box, and what the video is.
typedef struct {
    unsigned char *pixels;      // RGB, width * height * 3 bytes; free with lb_video_free
    int width, height;
    int source_width, source_height;  // the picture as shown (after rotation)
    int rotation;               // degrees clockwise the stored frames are turned to show them
    double duration;            // seconds; 0 when unknown
    double frame_rate;          // frames a second; 0 when unknown
    double detail;              // the chosen frame's grey standard deviation (0-255)
    int candidates;             // frames decoded to choose it
    char codec[32];
    char message[256];
} lb_video;

enum { LB_VIDEO_OK = 0, LB_VIDEO_TOO_LARGE = 1, LB_VIDEO_FAILED = 2 };

static inline void lb_video_free(void *p) { av_free(p); }

static int lb_video_read(void *opaque, uint8_t *buf, int size) {
    int fd = *(int *)opaque;
    ssize_t n;
    do n = read(fd, buf, (size_t)size); while (n < 0 && errno == EINTR);
    if (n == 0) return AVERROR_EOF;
    return n < 0 ? AVERROR(errno) : (int)n;
}

static int64_t lb_video_seek(void *opaque, int64_t offset, int whence) {
    int fd = *(int *)opaque;
    if (whence == AVSEEK_SIZE) {
        struct stat st;
        return fstat(fd, &st) == 0 ? (int64_t)st.st_size : AVERROR(errno);
    }
    off_t at = lseek(fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    return at < 0 ? AVERROR(errno) : (int64_t)at;
}

/// The grey level's standard deviation over an RGB picture: near 0 for a black or flat frame.
static inline double lb_video_detail(const unsigned char *rgb, int count) {
    double sum = 0, squares = 0;
    for (int i = 0; i < count; i++) {
        double grey = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2];
        sum += grey;
        squares += grey * grey;
    }
    if (count == 0) return 0;
    double mean = sum / count;
    return sqrt(fmax(0, squares / count - mean * mean));
}

/// Decodes the next frame of stream `index` after a seek; 0 when one came out.
static inline int lb_video_next_frame(AVFormatContext *format, AVCodecContext *codec, int index, AVPacket *packet, AVFrame *frame) {
    for (int packets = 0; packets < 4096; packets++) {
        int got = avcodec_receive_frame(codec, frame);
        if (got == 0) return 0;
        if (got != AVERROR(EAGAIN)) return got;
        int read = av_read_frame(format, packet);
        if (read < 0) {
            avcodec_send_packet(codec, NULL);  // drain what the decoder holds
            return avcodec_receive_frame(codec, frame);
        }
        if (packet->stream_index == index) avcodec_send_packet(codec, packet);
        av_packet_unref(packet);
    }
    return AVERROR_INVALIDDATA;
}

/// Turns an RGB picture `degrees` clockwise (90, 180 or 270) into a new buffer.
static inline unsigned char *lb_video_rotate(const unsigned char *rgb, int w, int h, int degrees) {
    unsigned char *out = av_malloc((size_t)w * h * 3);
    if (!out) return NULL;
    int ow = degrees == 180 ? w : h;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int nx, ny;
            if (degrees == 90) { nx = h - 1 - y; ny = x; }
            else if (degrees == 270) { nx = y; ny = w - 1 - x; }
            else { nx = w - 1 - x; ny = h - 1 - y; }
            memcpy(out + ((size_t)ny * ow + nx) * 3, rgb + ((size_t)y * w + x) * 3, 3);
        }
    }
    return out;
}

/// A frame of the video open as `fd`, read with demuxer `demuxer` ("mov", "matroska", "avi"):
/// of a few keyframes from near 10% of the duration on, the first with enough detail (else the
/// one with the most), scaled to fit box_w x box_h, turned upright by the display matrix.
/// Refuses, before decoding, frames of more than max_pixels.
static inline int lb_video_thumbnail(int fd, const char *demuxer, int box_w, int box_h, double max_pixels, lb_video *v) {
    memset(v, 0, sizeof *v);
    av_log_set_level(AV_LOG_QUIET);
    int status = LB_VIDEO_FAILED;
    AVFormatContext *format = NULL;
    AVIOContext *io = NULL;
    AVCodecContext *codec = NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    struct SwsContext *scaler = NULL;
    unsigned char *best = NULL, *scaled = NULL;
    int fd_copy = fd;
    const AVInputFormat *input = av_find_input_format(demuxer);
    unsigned char *io_buffer = av_malloc(1 << 16);
    format = avformat_alloc_context();
    if (!input || !io_buffer || !format || !packet || !frame) { snprintf(v->message, sizeof v->message, "out of memory"); av_free(io_buffer); goto done; }
    io = avio_alloc_context(io_buffer, 1 << 16, 0, &fd_copy, lb_video_read, NULL, lb_video_seek);
    if (!io) { av_free(io_buffer); snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
    format->pb = io;
    format->flags |= AVFMT_FLAG_CUSTOM_IO;
    format->probesize = 8 << 20;
    format->max_analyze_duration = 2 * AV_TIME_BASE;
    if (avformat_open_input(&format, NULL, input, NULL) < 0) {
        snprintf(v->message, sizeof v->message, "cannot read the container");
        goto done;  // avformat_open_input freed the context
    }
    if (avformat_find_stream_info(format, NULL) < 0) { snprintf(v->message, sizeof v->message, "cannot read the streams"); goto done; }
    const AVCodec *decoder = NULL;
    int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (index < 0) { snprintf(v->message, sizeof v->message, index == AVERROR_DECODER_NOT_FOUND ? "no decoder for its video" : "no video stream"); goto done; }
    AVStream *stream = format->streams[index];
    int w = stream->codecpar->width, h = stream->codecpar->height;
    snprintf(v->codec, sizeof v->codec, "%s", avcodec_get_name(stream->codecpar->codec_id));
    if (format->duration > 0) v->duration = (double)format->duration / AV_TIME_BASE;
    else if (stream->duration > 0) v->duration = stream->duration * av_q2d(stream->time_base);
    if (stream->avg_frame_rate.num > 0 && stream->avg_frame_rate.den > 0) v->frame_rate = av_q2d(stream->avg_frame_rate);
    const int32_t *matrix = (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix) {
        double theta = -av_display_rotation_get(matrix);  // clockwise, as ffmpeg's autorotate reads it
        if (!isnan(theta)) v->rotation = ((int)lround(theta / 90) % 4 + 4) % 4 * 90;
    }
    // The picture as shown: sample aspect and rotation applied.
    AVRational sar = stream->codecpar->sample_aspect_ratio;
    double shown_w = w, shown_h = h;
    if (sar.num > 0 && sar.den > 0) shown_w = w * av_q2d(sar);
    int turned = v->rotation == 90 || v->rotation == 270;
    v->source_width = (int)lround(turned ? shown_h : shown_w);
    v->source_height = (int)lround(turned ? shown_w : shown_h);
    if (w <= 0 || h <= 0) { snprintf(v->message, sizeof v->message, "video has no pixels"); goto done; }
    if ((double)w * h > max_pixels) { status = LB_VIDEO_TOO_LARGE; goto done; }
    codec = avcodec_alloc_context3(decoder);
    if (!codec || avcodec_parameters_to_context(codec, stream->codecpar) < 0) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
    codec->thread_count = 1;
    // The stream may change size later (an MJPEG frame, an SPS): FFmpeg refuses any frame
    // buffer over the limit, and every frame that comes out is checked again below.
    codec->max_pixels = (int64_t)fmin(max_pixels, (double)INT64_MAX / 2);
    if (avcodec_open2(codec, decoder, NULL) < 0) { snprintf(v->message, sizeof v->message, "cannot open the %s decoder", v->codec); goto done; }
    // The size the frame is scaled to, as stored (before turning), fitting the box once turned.
    double fit_w = turned ? box_h : box_w, fit_h = turned ? box_w : box_h;
    double scale = fmin(fit_w / shown_w, fit_h / shown_h);
    if (scale > 1) scale = 1;
    int out_w = (int)fmax(1, lround(shown_w * scale)), out_h = (int)fmax(1, lround(shown_h * scale));
    size_t out_bytes = (size_t)out_w * out_h * 3;
    scaled = av_malloc(out_bytes);
    best = av_malloc(out_bytes);
    if (!scaled || !best) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
    static const double positions[] = { 0.10, 0.25, 0.40, 0.0 };
    double best_detail = -1;
    int64_t last_pts = AV_NOPTS_VALUE;
    for (int c = 0; c < 4; c++) {
        double at = positions[c] * v->duration;
        if (c > 0 && v->duration <= 0) break;
        int64_t target = (int64_t)(at / av_q2d(stream->time_base));
        if (stream->start_time != AV_NOPTS_VALUE) target += stream->start_time;
        // The keyframe at or after the point; past the last one, the one before it.
        if (av_seek_frame(format, index, target, 0) < 0 && av_seek_frame(format, index, target, AVSEEK_FLAG_BACKWARD) < 0) continue;
        avcodec_flush_buffers(codec);
        if (lb_video_next_frame(format, codec, index, packet, frame) != 0) continue;
        if (frame->pts != AV_NOPTS_VALUE && frame->pts == last_pts) continue;  // the same keyframe again
        last_pts = frame->pts;
        if ((double)frame->width * frame->height > max_pixels) {
            v->source_width = frame->width;
            v->source_height = frame->height;
            status = LB_VIDEO_TOO_LARGE;
            goto done;
        }
        scaler = sws_getCachedContext(scaler, frame->width, frame->height, frame->format, out_w, out_h, AV_PIX_FMT_RGB24,
                                      SWS_AREA, NULL, NULL, NULL);
        if (!scaler) continue;
        uint8_t *planes[1] = { scaled };
        int strides[1] = { out_w * 3 };
        if (sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides) <= 0) continue;
        v->candidates++;
        double detail = lb_video_detail(scaled, out_w * out_h);
        if (detail > best_detail) {
            best_detail = detail;
            memcpy(best, scaled, out_bytes);
        }
        if (detail >= 24) break;  // enough to tell the video by
    }
    if (best_detail < 0) { snprintf(v->message, sizeof v->message, "cannot decode a frame of its %s video", v->codec); goto done; }
    v->detail = best_detail;
    if (v->rotation) {
        v->pixels = lb_video_rotate(best, out_w, out_h, v->rotation);
        if (!v->pixels) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
        v->width = turned ? out_h : out_w;
        v->height = turned ? out_w : out_h;
    } else {
        v->pixels = best;
        best = NULL;
        v->width = out_w;
        v->height = out_h;
    }
    status = LB_VIDEO_OK;
done:
    sws_freeContext(scaler);
    av_free(scaled);
    av_free(best);
    avcodec_free_context(&codec);
    if (format) avformat_close_input(&format);
    if (io) { av_freep(&io->buffer); avio_context_free(&io); }
    av_frame_free(&frame);
    av_packet_free(&packet);
    return status;
}

#endif
