"""What the benchmarks compare against, defined once: the three shapes of the issue tracker and the
LN-LSTM as PyTorch users write it. Imports neither lnrnn nor numba (PyTorch runs in its own process)."""
import numpy as np

SHAPES = {  # name: (T, B, I, H, what)
    "S1": (784, 64, 1, 128, "pixel MNIST"),
    "S2": (28, 128, 28, 256, "row MNIST"),
    "S3": (300, 32, 3, 400, "strokes"),
}


def ln_lstm_cell(torch, p, device="cpu"):
    """An nn.Module LN-LSTM cell (Linear + LayerNorm modules, autograd does BPTT) holding lnrnn's
    weights p (layout in lnrnn.kernels: PyTorch's weight is Wx.T / Wh.T)."""
    nn = torch.nn
    I, G = p["Wx"].shape
    H = G // 4

    class LNLSTMCell(nn.Module):
        def __init__(self):
            super().__init__()
            self.wx = nn.Linear(I, 4 * H, bias=False)
            self.wh = nn.Linear(H, 4 * H, bias=False)
            self.ln_x, self.ln_h, self.ln_c = nn.LayerNorm(4 * H), nn.LayerNorm(4 * H), nn.LayerNorm(H)
            self.b = nn.Parameter(torch.zeros(4 * H))

        def forward(self, x, h, c):
            a = self.ln_h(self.wh(h)) + self.ln_x(self.wx(x)) + self.b
            i, f, g, o = a.chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(self.ln_c(c))
            return h, c

    cell = LNLSTMCell().to(device=device, dtype=torch.from_numpy(p["Wx"]).dtype)  # p's float32 or float64
    with torch.no_grad():
        cell.wx.weight.copy_(torch.from_numpy(np.ascontiguousarray(p["Wx"].T)))
        cell.wh.weight.copy_(torch.from_numpy(np.ascontiguousarray(p["Wh"].T)))
        cell.b.copy_(torch.from_numpy(p["b"]))
        for ln, g, b in ((cell.ln_x, "gx", "bx"), (cell.ln_h, "gh", "bh"), (cell.ln_c, "gc", "bc")):
            ln.weight.copy_(torch.from_numpy(p[g]))
            ln.bias.copy_(torch.from_numpy(p[b]))
    return cell


def ln_lstm_step(torch, cell, x, dy):
    """One training step of the eager cell: Python loop over T, loss sum(y * dy), autograd backward."""
    T, B, _ = x.shape
    H = dy.shape[2]
    h = torch.zeros(B, H, dtype=x.dtype, device=x.device)
    c = torch.zeros(B, H, dtype=x.dtype, device=x.device)
    hs = []
    for t in range(T):
        h, c = cell(x[t], h, c)
        hs.append(h)
    y = torch.stack(hs)
    cell.zero_grad()
    (y * dy).sum().backward()
    return y
