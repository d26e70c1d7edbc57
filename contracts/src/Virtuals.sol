// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./ERC20.sol";

/// A token launched on the virtuals curve: its whole supply is minted to the factory, which
/// sells it along the curve. `ref` is the service's token id (the launch's bytes16 ref).
contract VirtualsToken is ERC20 {
    bytes16 public immutable ref;
    address public immutable factory;

    constructor(bytes16 ref_, string memory name_, string memory symbol_, uint256 supply)
        ERC20(name_, symbol_)
    {
        ref = ref_;
        factory = msg.sender;
        _mint(msg.sender, supply);
    }
}

/// The `virtuals` template (docs/chain.md): a bonding curve in the manner of Virtuals'
/// Bonding.sol. Each token trades against one ERC-20 payment token on a constant-product
/// curve over a virtual payment reserve: price = (lockedPayment + virtualPayment) / reserveToken,
/// with virtualPayment = graduationThreshold: the first token costs threshold / supply, and at
/// graduation half the supply has been sold at a price four times the first. Buys and sells carry slippage
/// (`amountOutMin`) and a `deadline`. When the locked payment reaches the token's
/// `graduationThreshold`, the curve graduates: `Graduated` is emitted and it trades no more.
/// There are no fees.
contract VirtualsFactory {
    uint256 public constant SUPPLY = 1_000_000_000 ether;

    struct Curve {
        uint256 reserveToken;
        uint256 lockedPayment;
        uint256 virtualPayment;
        uint256 graduationThreshold;
        bool graduated;
        address creator;
    }

    event Launched(bytes16 indexed ref, address indexed instance, address indexed creator);
    event Trade(
        address indexed token,
        address indexed trader,
        bool isBuy,
        uint256 amountPayment,
        uint256 amountToken,
        uint256 reserveToken,
        uint256 lockedPayment
    );
    event Graduated(address indexed token, uint256 lockedPayment, uint256 reserveToken);
    /// The curve a launch opens, so an indexer knows its threshold without reading storage.
    event CurveCreated(address indexed token, uint256 reserveToken, uint256 virtualPayment, uint256 graduationThreshold);

    ERC20 public immutable paymentToken;
    mapping(address => Curve) public curves;

    constructor(ERC20 paymentToken_) {
        paymentToken = paymentToken_;
    }

    function launch(
        bytes16 ref,
        string calldata name,
        string calldata symbol,
        uint256 graduationThreshold,
        uint256 initialBuy
    ) external returns (address instance) {
        require(graduationThreshold > 0, "graduationThreshold");
        instance = address(new VirtualsToken(ref, name, symbol, SUPPLY));
        curves[instance] = Curve(SUPPLY, 0, graduationThreshold, graduationThreshold, false, msg.sender);
        emit Launched(ref, instance, msg.sender);
        emit CurveCreated(instance, SUPPLY, graduationThreshold, graduationThreshold);
        if (initialBuy > 0) _buy(instance, initialBuy, 0);
    }

    /// Tokens out for `amountIn` payment, at the current reserves.
    function quoteBuy(address token, uint256 amountIn) public view returns (uint256) {
        Curve storage c = _curve(token);
        uint256 payment = c.lockedPayment + c.virtualPayment;
        // Rounded against the trader: the reserves never lose to rounding.
        return c.reserveToken - (c.reserveToken * payment + payment + amountIn - 1) / (payment + amountIn);
    }

    /// Payment out for `amountIn` tokens, at the current reserves.
    function quoteSell(address token, uint256 amountIn) public view returns (uint256) {
        Curve storage c = _curve(token);
        uint256 payment = c.lockedPayment + c.virtualPayment;
        uint256 out = payment - (c.reserveToken * payment + c.reserveToken + amountIn - 1) / (c.reserveToken + amountIn);
        return out > c.lockedPayment ? c.lockedPayment : out;
    }

    function buy(address token, uint256 amountIn, uint256 amountOutMin, uint256 deadline)
        external
        returns (uint256 amountOut)
    {
        require(block.timestamp <= deadline, "deadline");
        amountOut = _buy(token, amountIn, amountOutMin);
    }

    function sell(address token, uint256 amountIn, uint256 amountOutMin, uint256 deadline)
        external
        returns (uint256 amountOut)
    {
        require(block.timestamp <= deadline, "deadline");
        require(amountIn > 0, "amount");
        Curve storage c = _curve(token);
        require(!c.graduated, "graduated");
        amountOut = quoteSell(token, amountIn);
        require(amountOut >= amountOutMin, "slippage");
        ERC20(token).transferFrom(msg.sender, address(this), amountIn);
        c.reserveToken += amountIn;
        c.lockedPayment -= amountOut;
        paymentToken.transfer(msg.sender, amountOut);
        emit Trade(token, msg.sender, false, amountOut, amountIn, c.reserveToken, c.lockedPayment);
    }

    function _buy(address token, uint256 amountIn, uint256 amountOutMin) internal returns (uint256 amountOut) {
        require(amountIn > 0, "amount");
        Curve storage c = _curve(token);
        require(!c.graduated, "graduated");
        amountOut = quoteBuy(token, amountIn);
        require(amountOut >= amountOutMin, "slippage");
        paymentToken.transferFrom(msg.sender, address(this), amountIn);
        c.reserveToken -= amountOut;
        c.lockedPayment += amountIn;
        ERC20(token).transfer(msg.sender, amountOut);
        emit Trade(token, msg.sender, true, amountIn, amountOut, c.reserveToken, c.lockedPayment);
        if (c.lockedPayment >= c.graduationThreshold) {
            c.graduated = true;
            emit Graduated(token, c.lockedPayment, c.reserveToken);
        }
    }

    function _curve(address token) internal view returns (Curve storage c) {
        c = curves[token];
        require(c.graduationThreshold > 0, "unknown token");
    }
}
