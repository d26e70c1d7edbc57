import { decodeFunctionData, toFunctionSelector } from 'viem';
import {
  amountUnits,
  dpnmFactoryAbi,
  launchCalldata,
  multiplierBps,
  refOf,
  tokenIdOfRef,
  virtualsFactoryAbi,
} from '../../shared/chain/launchpad';
import { chainName } from '../../shared/chain/chains';
import { launchParamsSchemas } from '../../api/routes/tokens/schemas';

/** Launch calldata: the bytes a wallet signs must say exactly what the metadata says. */

const TOKEN_ID = '0b7e2c4d-9f1a-4e3b-8c5d-6a7f8e9d0c1b';

describe('refOf / tokenIdOfRef', () => {
  it('is the UUID’s 16 bytes, lowercase, and turns back into the same id', () => {
    expect(refOf(TOKEN_ID)).toBe('0x0b7e2c4d9f1a4e3b8c5d6a7f8e9d0c1b');
    expect(refOf(TOKEN_ID.toUpperCase())).toBe(refOf(TOKEN_ID));
    expect(tokenIdOfRef(refOf(TOKEN_ID))).toBe(TOKEN_ID);
  });

  it('refuses anything that is not a UUID or bytes16', () => {
    expect(() => refOf('not-a-uuid')).toThrow(/not a UUID/);
    expect(() => refOf(`${TOKEN_ID}0`)).toThrow(/not a UUID/);
    expect(() => tokenIdOfRef('0x1234')).toThrow(/not bytes16/);
  });
});

describe('amounts and basis points', () => {
  it('reads decimal strings as 18-decimal base units, exactly', () => {
    expect(amountUnits('1.5')).toBe(1_500_000_000_000_000_000n);
    expect(amountUnits('0.000000000000000001')).toBe(1n);
    expect(amountUnits('1000000000000000')).toBe(10n ** 33n);
  });

  it('turns a multiplier into basis points without float drift', () => {
    expect(multiplierBps(2.5)).toBe(25_000);
    // 1.0001 * 10000 is 10000.999999999998 in floating point.
    expect(multiplierBps(1.0001)).toBe(10_001);
    expect(multiplierBps(0.0001)).toBe(1);
    expect(multiplierBps(100)).toBe(1_000_000);
    expect(multiplierBps(4.35)).toBe(43_500);
  });
});

describe('launchCalldata', () => {
  it('encodes the virtuals factory’s launch with the ref, name, symbol and amounts', () => {
    const data = launchCalldata('virtuals', TOKEN_ID, 'Moon Agent', 'MOON', {
      graduationThreshold: '42000',
      initialBuy: '12.5',
    });
    expect(data.slice(0, 10)).toBe(
      toFunctionSelector('launch(bytes16,string,string,uint256,uint256)'),
    );
    const decoded = decodeFunctionData({ abi: virtualsFactoryAbi, data });
    expect(decoded.functionName).toBe('launch');
    expect(decoded.args).toEqual([
      refOf(TOKEN_ID),
      'Moon Agent',
      'MOON',
      42_000n * 10n ** 18n,
      12_500_000_000_000_000_000n,
    ]);
  });

  it('encodes the dpnm factory’s launch with the multiplier in basis points', () => {
    const data = launchCalldata('dpnm', TOKEN_ID, 'Tree', 'TREE', {
      initialPrice: '0.01',
      dailyLimitFloor: '0',
      incomeLimitMultiplier: 3.25,
      treeActivationCost: '50',
    });
    expect(data.slice(0, 10)).toBe(
      toFunctionSelector('launch(bytes16,string,string,uint256,uint256,uint32,uint256)'),
    );
    expect(decodeFunctionData({ abi: dpnmFactoryAbi, data }).args).toEqual([
      refOf(TOKEN_ID),
      'Tree',
      'TREE',
      10n ** 16n,
      0n,
      32_500,
      50n * 10n ** 18n,
    ]);
  });
});

describe('launch params', () => {
  const dpnm = {
    initialPrice: '0.5',
    dailyLimitFloor: '10',
    incomeLimitMultiplier: 2,
    treeActivationCost: '25',
  };

  it('normalise decimal strings to their shortest form and default initialBuy to "0"', () => {
    expect(launchParamsSchemas.virtuals.parse({ graduationThreshold: '0012.500' })).toEqual({
      graduationThreshold: '12.5',
      initialBuy: '0',
    });
    expect(
      launchParamsSchemas.dpnm.parse({ ...dpnm, initialPrice: '1.000000000000000001' }),
    ).toEqual({ ...dpnm, initialPrice: '1.000000000000000001' });
  });

  it.each([
    [{ graduationThreshold: '0' }, 'must be greater than 0'],
    [{ graduationThreshold: '1.0000000000000000001' }, 'at most 18 decimals'],
    [{ graduationThreshold: '1e3' }, 'decimal string'],
    [{ graduationThreshold: '-1' }, 'decimal string'],
    [{ graduationThreshold: ' 1' }, 'decimal string'],
    [{ graduationThreshold: 5 }, 'decimal string'],
    [{ graduationThreshold: '1000000000000000.1' }, 'at most 1000000000000000'],
    [{}, 'is required'],
  ])('refuse virtuals %j (%s)', (params, message) => {
    const result = launchParamsSchemas.virtuals.safeParse(params);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it.each([
    [{ incomeLimitMultiplier: 0 }, 'must be greater than 0'],
    [{ incomeLimitMultiplier: 100.5 }, 'at most 100'],
    [{ incomeLimitMultiplier: 1.00001 }, 'at most 4 decimals'],
    [{ incomeLimitMultiplier: '2' }, 'must be a number'],
    // The reference contract refuses a free activation; a zero floor locks an empty pool.
    [{ treeActivationCost: '0' }, 'must be greater than 0'],
    [{ dailyLimitFloor: '0' }, 'must be greater than 0'],
  ])('refuse dpnm %j (%s)', (override, message) => {
    const result = launchParamsSchemas.dpnm.safeParse({ ...dpnm, ...override });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('accept the limits themselves', () => {
    expect(
      launchParamsSchemas.dpnm.safeParse({
        ...dpnm,
        incomeLimitMultiplier: 100,
        initialPrice: '1000000000000000',
      }).success,
    ).toBe(true);
    expect(
      launchParamsSchemas.dpnm.safeParse({ ...dpnm, incomeLimitMultiplier: 0.0001 }).success,
    ).toBe(true);
  });
});

describe('chainName', () => {
  it('names the known chains and falls back to the id', () => {
    expect(chainName(56)).toBe('BNB Smart Chain');
    expect(chainName(97)).toBe('BNB Smart Chain Testnet');
    expect(chainName(8453)).toBe('Base');
    expect(chainName(31337)).toBe('Local development chain');
    expect(chainName(10)).toBe('Chain 10');
  });
});
